// The consumer of the installed package: prints the layout of a SPEC exactly as `llcheck layout`
// does, and checks one algebraic fact on it (composing with its inverse is the identity), so the
// test exercises the headers, the library and its dependencies as an outside project sees them.
#include "llcheck/core/Formats.h"
#include "llcheck/core/Spec.h"
#include "llcheck/core/TritonVersion.h"

#include <iostream>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: consumer SPEC SHAPE\n";
    return 2;
  }
  auto shape = llcheck::parseShape(argv[2]);
  if (!shape.ok()) {
    std::cerr << shape.error().str() << "\n";
    return 2;
  }
  llcheck::LayoutContext options;
  options.shape = *shape;
  auto loaded = llcheck::loadSpec(argv[1], options);
  if (!loaded.ok()) {
    std::cerr << loaded.error().str() << "\n";
    return 2;
  }
  const llcheck::LinearLayout& l = loaded->layout;
  // toString() opens with a newline, as Triton's does; llcheck layout prints it without.
  std::string text = l.toString();
  std::cout << (text.rfind('\n', 0) == 0 ? text.substr(1) : text) << "\n";
  // An attribute's layout ends with the Triton release whose semantics it has.
  std::cout << "(Triton " << llcheck::tritonVersionName(options.triton) << " semantics)\n";
  auto roundTrip = l.invertAndCompose(l);
  if (!roundTrip.ok() || !roundTrip->isInvertible()) {
    std::cerr << "invertAndCompose of a layout with itself is not the identity\n";
    return 1;
  }
  return 0;
}

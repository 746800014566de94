"""Writes a SASS listing whose lines are each 50,000 characters or more (issue 31, finding 1):
a `Function :` header with a 50,000-character name, an instruction line with a 50,000-character
operand list, a predicate and an opcode 50,000 characters long, and 50,000 blanks before an
address. std::regex recursed once a character and overflowed the stack on the first."""
import sys

n = 50_000
lines = [
    "Function : " + "A" * n,
    "        /*0000*/                   LDS.U.128 R4, [R2+" + "1" * n + "] ;",
    "        /*0010*/                   @P0 " + "EXIT" + ".X" * (n // 2) + " ;",
    " " * n + "/*0020*/ " + "A" * n,
    "        /*0030*/                   @" + "P" * n + " BRA 0x30;",
    "/*" + "0" * n + "*/ EXIT ;",
]
with open(sys.argv[1], "w") as f:
    f.write("\n".join(lines) + "\n")

#!/usr/bin/env bash
# A cuobjdump that misbehaves as issue 31 (finding 6) found: FAKE_CUOBJDUMP_MODE picks how.
#   long:       prints one 50,000-character SASS line (finding 1, through --cuobjdump)
#   hang:       never exits
#   background: prints a listing, exits 0, and leaves a child holding its stdout for 1,000 s
case "${FAKE_CUOBJDUMP_MODE:-}" in
long) printf 'Function : %s\n' "$(head -c 50000 /dev/zero | tr '\0' A)" ;;
hang) exec sleep 1000 ;;
background)
  printf 'Function : k\n        /*0000*/                   LDS R4, [R2] ;\n        /*0010*/                   EXIT ;\n'
  sleep 1000 &
  exit 0 ;;
*) exit 1 ;;
esac

#!/bin/sh
# A CUDA runner that answers "correct" for a case it was not given (PLANS VERDICTS).
printf '# cuda 13.0\nnot-a-case correct\n' > "$2"

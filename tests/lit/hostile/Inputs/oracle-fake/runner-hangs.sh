#!/bin/sh
# A CUDA runner that never finishes, with a background child holding its output.
sleep 1000 &
sleep 1000

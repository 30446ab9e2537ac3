#!/bin/sh
# TEST DOUBLE launcher for VPCS (see vpcs_wrapper.py). GNS3 runs `vpcs -v` before every start: it is
# answered here without starting Python, so ten VPCS starting together cost ten Python start-ups, not
# twenty, on a busy machine. Everything else runs the wrapper (stdlib only, hence -S).# It runs at a raised priority (root in the lab): a test double's start-up is not what a test
# measures, and on a machine shared by many test runs it must not miss GNS3's start-up deadlines.
case " $* " in
*" -v "*) echo "Welcome to Virtual PC Simulator, version 0.6.1" ;;
*) exec nice -n -10 python3 -S "$(dirname "$0")/vpcs_wrapper.py" "$@" ;;
esac

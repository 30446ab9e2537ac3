#!/bin/sh
# TEST DOUBLE launcher for ubridge (see ubridge_standin.py). GNS3 runs `ubridge -v` before every
# hypervisor start and then gives the hypervisor 10 s to listen: the version is answered here without
# starting Python, so the hypervisor's own start-up is not queued behind ten version checks on a busy
# machine. The version must stay the one ubridge_standin.py prints.
# It runs at a raised priority (root in the lab): a test double's start-up is not what a test
# measures, and on a machine shared by many test runs it must not miss GNS3's start-up deadlines.
case " $* " in
*" -v "*) echo "ubridge version 0.9.18 (test double)" ;;
*) exec nice -n -10 python3 -S "$(dirname "$0")/ubridge_standin.py" "$@" ;;
esac

# Runs inside the vivid VM (scripts/vivid-vm.sh), chrooted into the host's / :
# loads vivid with two webcam-like devices (the second also has a metadata node)
# and runs the pytest suite beside this file against the project's build.
ROOT=@ROOT@
modprobe vivid n_devs=2 node_types=0x1,0x20001 num_inputs=1,1 input_types=0,0 || exit 1
export PYTHONDONTWRITEBYTECODE=1
export OCELLUS_CLI=$ROOT/build/bin/ocellus OCELLUS_LIBRARY=$ROOT/build/lib/libocellus.so.0
cd "$ROOT" && /usr/bin/python3 -m pytest -q -p no:cacheprovider --color=no Tests/vivid

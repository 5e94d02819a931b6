"""Calls that wait for a session's callbacks, made from inside one: refused, saying what to do."""

import time

import ocellus
from ocellus import VideoDataOutput


def test_stopping_from_inside_a_frame_callback_is_refused_saying_what_to_do(session):
    """Stopping waits for the frame callbacks, so inside one it is refused: the message says so in
    words a Python user reads (no Swift or C name) and what to do instead."""
    session.set_input(session.camera)
    output = VideoDataOutput("NV12", 320, 240)
    refusals = []

    def stop_inside(frame):
        if not refusals:
            try:
                session.stop_running()
            except ocellus.WrongState as error:
                refusals.append(str(error))
            except Exception as error:  # noqa: BLE001 - recorded, asserted below
                refusals.append(repr(error))
    output.set_frame_callback(stop_inside)
    session.add_output(output)
    with session.running():
        deadline = time.monotonic() + 10
        while not refusals and time.monotonic() < deadline:
            time.sleep(0.01)
    output.set_frame_callback(None)
    assert refusals and refusals[0].startswith("stopping the session waits for the session's frame callbacks"), refusals
    assert "another thread" in refusals[0] and "stopRunning" not in refusals[0]

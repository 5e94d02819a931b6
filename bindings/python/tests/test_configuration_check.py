"""A session says before streaming whether its configuration runs as asked or adjusted, and
what; started, it runs what it said (libcamera's validate(), on the real daemon)."""

from fractions import Fraction

import pytest

import ocellus
from ocellus import ConfigurationAdjustment, VideoDataOutput


def test_without_an_input_there_is_nothing_to_check(session):
    assert session.check_configuration() is None


def test_an_output_the_camera_serves_runs_as_asked_and_then_runs_what_was_said(session):
    session.set_input(session.camera)
    session.add_output(VideoDataOutput("NV12", 320, 240, max_frame_rate=Fraction(15)))
    check = session.check_configuration()
    assert check.as_asked and check.adjusted == ConfigurationAdjustment(0) and check.reason == ""
    offered = {(f.pixel_format, f.width, f.height) for f in session.camera.formats}
    assert (check.pixel_format, check.width, check.height) in offered, "the camera's own format, as it lists it"
    with session.running():
        assert session.active_format == (check.pixel_format, check.width, check.height, check.frame_rate)


def test_a_rate_the_camera_cannot_reach_is_adjusted_and_says_why(session):
    session.set_input(session.camera)
    fastest = max(rate for f in session.camera.formats for rate in f.frame_rates)
    output = VideoDataOutput("NV12", 320, 240, max_frame_rate=fastest * 4)
    session.add_output(output)
    check = session.check_configuration()
    assert not check.as_asked and check.adjusted == ConfigurationAdjustment.FRAME_RATE, check
    assert check.asked[3] == fastest * 4 and check.frame_rate <= fastest
    assert f"at {float(check.frame_rate)} fps at most, and the outputs ask {float(fastest * 4)}" in check.reason, check.reason
    with session.running():
        assert session.active_format[3] == check.frame_rate


def test_the_check_is_of_the_changes_not_committed_yet_and_raises_what_committing_would(session):
    session.set_input(session.camera)
    session.begin_configuration()
    session.add_output(VideoDataOutput("NV12", 300, 300))   # no format of the camera has that aspect
    with pytest.raises(ocellus.InvalidArgument) as checked:
        session.check_configuration()
    with pytest.raises(ocellus.InvalidArgument) as committed:
        session.commit_configuration()
    assert str(checked.value) == str(committed.value) and "offers no format that serves every output" in str(checked.value)


"""``collect --origin INPUT=REPOSITORY@COMMIT:PATH`` (issue 22, public-data
families): a record of someone else's files names where each one was
published, with the first 12 hex digits of the file's sha256 so a reader can
check that the published file is the one collected."""

from __future__ import annotations

from .conftest import TORCH, TRTEXEC, assert_refused

LOG = TRTEXEC / "trt10.16_build-and-run.log"
LOG_ORIGIN = "NVIDIA/trt-samples-for-hackathon-cn@353a4d73:cookbook/07-Tool/trtexec/result-01.log"
TRACE = TORCH / "cuda-h100_bert-small_profilerstep6_kineto_trace.json.gz"
TRACE_ORIGIN = ("AMD-AGI/TraceLens@171dd747:tests/traces/h100/gaunernst_bert-small-uncased__1016001.json.gz")


def test_a_log_names_where_it_was_published(collect):
    done = collect("trtexec", "--log", LOG, "--origin", f"log={LOG_ORIGIN}")
    assert done.exit_code == 0, done.err
    provenance = done.record["provenance"]
    # sha256sum ../shared/fixtures/trtexec/trt10.16_build-and-run.log: 531f136a721addf7...
    assert ("input --log trt10.16_build-and-run.log (sha256 531f136a721a) was published in "
            "NVIDIA/trt-samples-for-hackathon-cn at commit 353a4d73 as cookbook/07-Tool/trtexec/result-01.log"
            ) in provenance["notes"]
    assert provenance["collector"]["command"].endswith(f"--origin log={LOG_ORIGIN}")


def test_a_gzip_trace_is_hashed_as_stored(collect):
    done = collect("torch-profile", "--trace", TRACE, "--mode", "eager", "--origin", f"trace={TRACE_ORIGIN}")
    assert done.exit_code == 0, done.err
    # sha256sum of the .json.gz file as stored (compressed bytes): 309220b5130a...
    (note,) = [n for n in done.record["provenance"]["notes"] if n.startswith("input --trace")]
    assert note == ("input --trace cuda-h100_bert-small_profilerstep6_kineto_trace.json.gz (sha256 309220b5130a) "
                    "was published in AMD-AGI/TraceLens at commit 171dd747 as "
                    "tests/traces/h100/gaunernst_bert-small-uncased__1016001.json.gz")


def test_two_inputs_two_origins_and_a_second_collect_repeats_no_note(collect):
    # the profile with the log of the run that wrote it (a profile matched to a run that wrote none is refused)
    log, profile = TRTEXEC / "trt8.6_resnet50-int8_separate-profile-run.log", TRTEXEC / "trt8.6_resnet50-int8_profile.json"
    args = ("--log", log, "--profile", profile,
            "--origin", "log=kalfazed/tensorrt_starter@3782a931:result/resnet50-int8.engine.profile.log",
            "--origin", "profile=kalfazed/tensorrt_starter@3782a931:result/resnet50-int8.engine.profile.json")
    done = collect("trtexec", *args)
    assert done.exit_code == 0, done.err
    notes = [n for n in done.record["provenance"]["notes"] if n.startswith("input --")]
    assert [n.split(" (sha256")[0] for n in notes] == [
        "input --log trt8.6_resnet50-int8_separate-profile-run.log", "input --profile trt8.6_resnet50-int8_profile.json"]
    again = collect("trtexec", *args)
    assert again.exit_code == 0, again.err
    assert [n for n in again.record["provenance"]["notes"] if n.startswith("input --")] == notes


def test_an_origin_for_an_input_not_given_is_refused(collect):
    done = collect("trtexec", "--log", LOG, "--origin", "times=a/b@1234567:times.json")
    assert_refused(done, "--origin times=a/b@1234567:times.json: no --times file was given",
                   "(input files given: --log)")


def test_a_malformed_origin_is_refused(collect):
    for text in ("log=NVIDIA/repo:path.log",          # no commit
                 "log=NVIDIA/repo@12345:path.log",    # a commit of 5 hex digits
                 "log=NVIDIA/repo@1234567:",          # no path
                 "NVIDIA/repo@1234567:path.log",      # no input
                 "log=NVIDIA repo@1234567:path.log"):  # a blank in the repository
        done = collect("trtexec", "--log", LOG, "--origin", text)
        assert_refused(done, f"invalid --origin {text!r}: use INPUT=REPOSITORY@COMMIT:PATH")


def test_one_input_has_one_origin(collect):
    done = collect("trtexec", "--log", LOG, "--origin", f"log={LOG_ORIGIN}", "--origin", "log=a/b@1234567:c.log")
    assert_refused(done, "--origin given twice for --log")

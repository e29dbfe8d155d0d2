"""The timing signature in words (studygen.study.timing.describe): what the
generic template prints above each latency table and SG212 prints per figure."""

from studygen.study.timing import describe, thread_words


def test_a_trtexec_signature_reads_as_a_reviewer_says_it():
    assert describe(("tensorrt", "engine", "gpu_compute", False, True, False, None, None)) == (
        "TensorRT engine, GPU compute time, CUDA graphs off, data transfers on, spin-wait off")


def test_a_compiled_pytorch_signature_names_torch_compile_and_how_the_host_waited():
    assert describe(("pytorch", "compile", "end_to_end", None, False, None, "per_forward", None)) == (
        "PyTorch torch.compile, end-to-end time, CUDA graphs unknown, data transfers off, host waits for each forward")


def test_spin_wait_is_named_for_pytorch_only_where_a_record_sets_it():
    # trtexec's flag: a PyTorch run that leaves it unset has no such setting to be unknown
    assert describe(("pytorch", "eager", "gpu_compute", False, False, None, "per_repeat", None)) == (
        "PyTorch eager, GPU compute time, CUDA graphs off, data transfers off, forwards queued back to back")
    assert describe(("pytorch", "eager", "gpu_compute", False, False, True, None, None)).endswith("spin-wait on")
    # TensorRT and an unstated backend keep saying what is not known
    assert describe(("tensorrt", "engine", "gpu_compute", True, False, None, None, None)).endswith("spin-wait unknown")
    assert describe((None, None, None, None, None, None, None, None)).endswith("spin-wait unknown")


def test_unstated_parts_say_so_and_unknown_values_print_as_recorded():
    assert describe((None, None, None, True, None, True, "per_repeat", None)) == (
        "backend not stated, timing not stated, CUDA graphs on, data transfers unknown, spin-wait on, "
        "forwards queued back to back")
    assert describe(("onnxruntime", "session", "h2d", None, None, None, None, None)).startswith(
        "ONNX Runtime session, host-to-device copy time, ")


def test_one_measurement_is_a_key_and_of_a_latency_its_timing(tmp_path):
    from studygen.study.timing import (latency_signature, measurement_of, reported_by_several_jobs,
                                       rows_by_measurement, timing_signature)

    from ..checks.studies import coco_ap, latency, load, record

    off, on = {"timer": "trtexec", "cuda_graph": False}, {"timer": "trtexec", "cuda_graph": True}
    failed = {"kind": "not_measured", "variant": "fp8", "shape": "800x800", "batch": 1, "backend": "tensorrt",
              "mode": "engine", "metric": "latency", "reason": "the engine build failed"}
    records = [record("a", [latency("fp16", 10.0, method=off), coco_ap("fp16", 0.46), dict(failed)]),
               record("b", [latency("fp16", 100.0, method=on), coco_ap("fp16", 0.47), dict(failed)]),
               record("c", [latency("fp16", 101.0, method=on)])]
    study = load(tmp_path, records=records)
    a_ms, a_ap, a_failed, b_ms, b_ap, b_failed, c_ms = study.rows
    assert latency_signature(a_ap) is None and latency_signature(a_failed) is None
    assert latency_signature(a_ms) == timing_signature(a_ms) == ("tensorrt", "engine", "gpu_compute", False, False,
                                                                  True, None, None)
    assert a_ms.key == b_ms.key and measurement_of(a_ms) != measurement_of(b_ms)
    assert measurement_of(b_ms) == measurement_of(c_ms) == (b_ms.key, latency_signature(b_ms))
    assert measurement_of(a_ap) == measurement_of(b_ap) == (a_ap.key, None)
    assert list(rows_by_measurement(study.rows).values()) == [[a_ms], [a_ap, b_ap], [a_failed, b_failed],
                                                               [b_ms, c_ms]]
    # only figures (a not-measured result has none) that two jobs or more report, timed alike
    assert list(reported_by_several_jobs(study.rows).values()) == [[a_ap, b_ap], [b_ms, c_ms]]
    assert reported_by_several_jobs([a_ms, b_ms]) == {} and reported_by_several_jobs([b_ms, b_ms]) == {}


def test_a_cuda_event_timer_is_told_by_its_letters_and_digits_alone():
    from studygen.records.timers import is_cuda_event_timer

    # collect run writes "cuda-events"; other spellings read alike, whatever separates the words or their case
    for timer in ("cuda-events", "cuda_event", "CUDA events", "CudaEvent", "cudaevent", "cuda.events.v2", "CUDA–events"):
        assert is_cuda_event_timer(timer), timer
    # trtexec's own timer, none, an empty name, a name that only holds the words later or a number before them
    for timer in ("trtexec", None, "", "xcudaevent", "1cudaevent", "cuda", "events", "cudevent", 7, "ｃｕｄａevent"):
        assert not is_cuda_event_timer(timer), timer


class _LoneRow:
    """A plan-size row whose job nobody needs to ask: its measurement has no other row."""

    kind, value = "plan_size", 3.0

    def __init__(self, key):
        self.key = key

    @property
    def job_id(self):
        raise AssertionError("asked the job of a measurement with one row")


def test_a_measurement_of_one_row_is_not_asked_its_jobs():
    from studygen.study.timing import reported_by_several_jobs

    assert reported_by_several_jobs([_LoneRow(("a",)), _LoneRow(("b",))]) == {}


def test_a_thread_count_prints_as_a_whole_number():
    # JSON Schema's integer takes 2.0: the README printed "2.0 intra-op threads" (an attack)
    assert thread_words(2.0) == thread_words(2) == " with 2 intra-op threads"
    assert thread_words(1.0) == " with 1 intra-op thread"
    assert thread_words(None) == ""

"""The timing signature in words (studygen.study.timing.describe): what the
generic template prints above each latency table and SG212 prints per figure."""

from studygen.study.timing import describe


def test_a_trtexec_signature_reads_as_a_reviewer_says_it():
    assert describe(("tensorrt", "engine", "gpu_compute", False, True, False, None)) == (
        "TensorRT engine, GPU compute time, CUDA graphs off, data transfers on, spin-wait off")


def test_a_compiled_pytorch_signature_names_torch_compile_and_how_the_host_waited():
    assert describe(("pytorch", "compile", "end_to_end", None, False, None, "per_forward")) == (
        "PyTorch torch.compile, end-to-end time, CUDA graphs unknown, data transfers off, spin-wait unknown, "
        "host waits for each forward")


def test_unstated_parts_say_so_and_unknown_values_print_as_recorded():
    assert describe((None, None, None, True, None, True, "per_repeat")) == (
        "backend not stated, timing not stated, CUDA graphs on, data transfers unknown, spin-wait on, "
        "forwards queued back to back")
    assert describe(("onnxruntime", "session", "h2d", None, None, None, None)).startswith(
        "ONNX Runtime session, host-to-device copy time, ")

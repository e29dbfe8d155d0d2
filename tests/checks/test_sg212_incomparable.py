"""SG212: latencies measured differently in one ratio, range or table column."""

from __future__ import annotations

from studygen.checks import CheckContext, sg212_incomparable
from studygen.findings import ERROR

from .studies import collected_provenance, kernel_time, latency, line_of, load, readme_lines, record, spec

HEADER = "{{ generated_note }}\n\n# {{ study.title }}\n\n"
RANGE = "fp16 latency: {{ study.span(study.figures(kind='latency', variant='fp16')) }}.\n"


def two_versions(tmp_path, method_10=None, method_11=None, template=HEADER + RANGE):
    records = [
        record("trt10", [latency("fp16", 6.10, method=method_10 or {"timer": "trtexec"})], collected_provenance(tensorrt="10.16.1")),
        record("trt11", [latency("fp16", 5.889, method=method_11 or {"timer": "trtexec"})], collected_provenance(tensorrt="11.4.0.106")),
    ]
    return load(tmp_path, records=records, template=template)


def test_trt10_flags_against_trt11_defaults_in_one_range(tmp_path):
    study = two_versions(tmp_path)
    findings = sg212_incomparable.check(CheckContext(study))
    assert len(findings) == 1
    finding = findings[0]
    assert finding.code == "SG212" and finding.severity == ERROR
    assert finding.file == "families/toy/README.md" and finding.line == line_of(study, "fp16 latency:")
    assert "range puts latencies measured differently together" in finding.message
    assert "6.1 ms (fp16, job trt10, 800x800): TensorRT engine, GPU compute time, CUDA graphs off, data transfers on, spin-wait off" in finding.message
    assert "5.889 ms (fp16, job trt11, 800x800): TensorRT engine, GPU compute time, CUDA graphs on, data transfers off, spin-wait on" in finding.message
    assert finding.message.endswith("spin-wait off; 5.889 ms (fp16, job trt11, 800x800): TensorRT engine, GPU compute time, "
                                    "CUDA graphs on, data transfers off, spin-wait on")  # nothing said of host waits
    assert finding.hint == ("compare only timings taken the same way, or explain the mix in the study file "
                            "(explanations: SG212)")


def test_same_effective_method_passes(tmp_path):
    trt11_defaults = {"timer": "trtexec", "cuda_graph": True, "data_transfers": False, "spin_wait": True}
    study = two_versions(tmp_path, method_10=trt11_defaults)
    assert sg212_incomparable.check(CheckContext(study)) == []


def test_gpu_compute_and_host_latency_in_one_table_column(tmp_path):
    records = [record("a", [latency("fp16", 5.889, timing="gpu_compute"), latency("fp8", 5.85)]),
               record("b", [latency("fp16", 6.4, timing="host_latency"), latency("fp8", 5.86)], collected_provenance("NVIDIA B200"))]
    template = HEADER + "{{ study.table(index=('job_id',), variants=('fp16', 'fp8'), kind='latency') }}\n"
    study = load(tmp_path, records=records, template=template)
    findings = sg212_incomparable.check(CheckContext(study))
    assert len(findings) == 1
    assert findings[0].line == line_of(study, "| Job")
    assert "table column puts latencies measured differently together" in findings[0].message
    assert "5.889 ms (fp16, job a, 800x800)" in findings[0].message and "TensorRT engine, host latency," in findings[0].message


def test_repeated_measurements_table_compares_each_line_not_each_variant(tmp_path):
    # the table has a line per measurement key: five trtexec timings of one variant on five lines are
    # not one column (the generic template failed its own check once a second job was collected)
    timings = ("host_latency", "enqueue", "h2d", "gpu_compute", "d2h")
    template = HEADER + "{{ study.repeated_measurements() }}\n"
    same = [record(job, [latency("fp16", 0.03 + i / 1000, timing=t) for i, t in enumerate(timings)]) for job in "ab"]
    assert sg212_incomparable.check(CheckContext(load(tmp_path / "same", records=same, template=template))) == []
    # two jobs that timed one key differently (data transfers off in b) are not one measurement: the table
    # gives them no line (issue 22: it did, and SG212 flagged the generic template's own table)
    mixed = [record("a", [latency("fp16", 6.1, method={"timer": "trtexec", "data_transfers": True})]),
             record("b", [latency("fp16", 5.9, method={"timer": "trtexec", "data_transfers": False})])]
    study = load(tmp_path / "mixed", records=mixed, template=template)
    assert sg212_incomparable.check(CheckContext(study)) == []
    assert not any(line.startswith("| Measurement") for line in readme_lines(study))
    # a third job timed as a is the same measurement as a: one line, a and c
    mixed.append(record("c", [latency("fp16", 6.2, method={"timer": "trtexec", "data_transfers": True})]))
    study = load(tmp_path / "three", records=mixed, template=template)
    assert sg212_incomparable.check(CheckContext(study)) == []
    assert [line.split("|")[4].strip() for line in readme_lines(study) if line.startswith("| fp16")] == ["a: 6.1; c: 6.2"]


def test_host_waiting_per_forward_against_back_to_back_forwards(tmp_path):
    def eager(job, value_ms, host_sync):
        method = {"timer": "cuda-events", "cuda_graph": False, "data_transfers": False, "host_sync": host_sync}
        return record(job, [latency("fp16", value_ms, backend="pytorch", mode="eager", method=method)])

    template = HEADER + RANGE
    mixed = load(tmp_path / "mixed", records=[eager("a", 23.5, "per_forward"), eager("b", 20.6, "per_repeat")],
                 template=template)
    findings = sg212_incomparable.check(CheckContext(mixed))
    assert len(findings) == 1
    # CUDA events around each forward: the timing as the record took it, not trtexec's GPU compute time
    assert ("23.5 ms (fp16, job a, 800x800): PyTorch eager, CUDA-event time per forward, CUDA graphs off, data transfers off, "
            "host waits for each forward") in findings[0].message
    assert "20.6 ms (fp16, job b, 800x800)" in findings[0].message and "forwards queued back to back" in findings[0].message
    same = load(tmp_path / "same", records=[eager("a", 23.5, "per_repeat"), eager("b", 20.6, "per_repeat")],
                template=template)
    assert sg212_incomparable.check(CheckContext(same)) == []


# --- shards of one collect run job (issue 17) ---

RATIO = ("FP8 against fp16: {{ study.ratio(study.one(kind='latency', variant='fp8', shape='800x800'), "
         "study.one(kind='latency', variant='fp16', shape='800x800')) }}.\n")
ALL_LATENCIES = "All latencies: {{ study.span(study.figures(kind='latency')) }}.\n"
BY_SHAPE = "{{ study.table(index=('shape',), variants=('fp16', 'fp8'), kind='latency') }}\n"
EAGER = {"timer": "cuda-events", "cuda_graph": False, "data_transfers": False, "host_sync": "per_repeat"}


def shard_record(index, count, cells, gpu_index=None, uuid=None, job="h200"):
    """The record of shard ``index`` of ``count`` of ``job`` (``cells``: (variant, latency ms, shape))."""
    placement = {"shard": [index, count], "launcher": "torchrun", "local_rank": gpu_index, "gpu_index": gpu_index,
                 "gpu_uuid": uuid, "cuda_visible_devices": None}
    provenance = collected_provenance(tensorrt=None, placement=placement)
    results = [latency(variant, value_ms, shape, backend="pytorch", mode="eager", method=dict(EAGER))
               for variant, value_ms, shape in cells]
    return record(f"{job}-shard{index}of{count}", results, provenance)


def test_a_ratio_of_variants_timed_in_two_shards_is_an_error_naming_both_gpus(tmp_path):
    records = [shard_record(1, 2, [("fp16", 8.377, "800x800")], 0, "GPU-5c1e0d2a-aaaa"),
               shard_record(2, 2, [("fp8", 9.061, "800x800")], 1, "GPU-77b3f9e0-bbbb")]
    study = load(tmp_path, records=records, template=HEADER + RATIO)
    findings = sg212_incomparable.check(CheckContext(study))
    assert len(findings) == 1
    finding = findings[0]
    assert finding.code == "SG212" and finding.severity == ERROR
    assert finding.line == line_of(study, "FP8 against fp16: 1.08x")
    assert finding.message == (
        "ratio compares latencies at 800x800 (eager) from different shards of job h200, not interleaved: "
        "9.061 ms (fp8, shard 2/2, GPU 1 (GPU-77b3f9e0-bbbb)); 8.377 ms (fp16, shard 1/2, GPU 0 (GPU-5c1e0d2a-aaaa))")
    assert finding.hint == ("measure the variants of one shape in one shard, or explain the comparison in the study "
                            "file (explanations: SG212), which prints it under the README's known gaps")


def test_one_output_twice_on_a_line_is_said_once_and_a_gpu_without_uuid_shows_its_index(tmp_path):
    records = [shard_record(1, 2, [("fp16", 8.377, "800x800")], 0), shard_record(2, 2, [("fp8", 9.061, "800x800")], 1)]
    study = load(tmp_path, records=records, template=HEADER + RATIO.rstrip("\n") + " Again: " + RATIO)
    findings = sg212_incomparable.check(CheckContext(study))
    assert len(findings) == 1
    assert findings[0].message.endswith("9.061 ms (fp8, shard 2/2, GPU 1); 8.377 ms (fp16, shard 1/2, GPU 0)")


def test_a_side_finding_across_shards_is_an_error(tmp_path):
    records = [shard_record(1, 2, [("fp16", 8.377, "800x800")], 0, "GPU-a"),
               shard_record(2, 2, [("fp8", 9.061, "800x800")], 1, "GPU-b")]
    template = HEADER + "{% for line in study.precision_inversions() %}- {{ line }}\n{% endfor %}"
    study = load(tmp_path, records=records, template=template)
    findings = sg212_incomparable.check(CheckContext(study))
    assert [f.line for f in findings] == [line_of(study, "is slower than fp16")]
    assert findings[0].message.startswith("side finding compares latencies at 800x800 (eager) from different shards")


def test_a_cell_not_measured_in_the_other_shard_is_no_comparison(tmp_path):
    refused = shard_record(2, 2, [], 1, "GPU-b")
    refused["results"] = [{"kind": "not_measured", "variant": "fp8", "shape": "800x800", "mode": "eager",
                           "backend": "pytorch", "metric": "latency", "reason": "no FP8 GEMM kernels in the profile"}]
    records = [shard_record(1, 2, [("fp16", 8.377, "800x800")], 0, "GPU-a"), refused]
    study = load(tmp_path, records=records, template=HEADER + BY_SHAPE)
    assert sg212_incomparable.check(CheckContext(study)) == []


def test_a_table_row_across_shards_is_an_error_and_a_record_without_placement_says_so(tmp_path):
    records = [shard_record(1, 3, [("fp16", 8.4, "800x800")]), shard_record(3, 3, [("fp8", 9.1, "800x800")])]
    for doc in records:
        del doc["provenance"]["placement"]  # a shard record written before placement was recorded
    study = load(tmp_path, records=records, template=HEADER + BY_SHAPE)
    findings = sg212_incomparable.check(CheckContext(study))
    assert [f.line for f in findings] == [line_of(study, "| Shape")]
    assert findings[0].message.startswith("table compares latencies at 800x800 (eager) from different shards of job h200")
    assert findings[0].message.endswith("8.4 ms (fp16, shard 1/3, GPU not recorded); 9.1 ms (fp8, shard 3/3, GPU not recorded)")


def test_shards_that_keep_each_shape_together_pass(tmp_path):
    records = [shard_record(1, 2, [("fp16", 8.377, "800x800"), ("fp8", 9.061, "800x800")], 0, "GPU-a"),
               shard_record(2, 2, [("fp16", 13.1, "800x1067"), ("fp8", 14.2, "800x1067")], 1, "GPU-b")]
    study = load(tmp_path, records=records, template=HEADER + RATIO + ALL_LATENCIES + BY_SHAPE)
    assert sg212_incomparable.check(CheckContext(study)) == []


def test_shards_of_two_jobs_and_unsharded_jobs_are_not_cross_shard(tmp_path):
    records = [shard_record(1, 2, [("fp16", 8.377, "800x800")], 0, "GPU-a", job="first"),
               shard_record(2, 2, [("fp8", 9.061, "800x800")], 1, "GPU-b", job="second")]
    study = load(tmp_path, records=records, template=HEADER + RATIO)
    assert sg212_incomparable.check(CheckContext(study)) == []
    # a job named like a shard but with K > N is no shard
    records = [record("h200-shard3of2", [latency("fp16", 8.377, backend="pytorch", mode="eager", method=dict(EAGER))]),
               shard_record(1, 2, [("fp8", 9.061, "800x800")])]
    study = load(tmp_path / "odd", records=records, template=HEADER + RATIO)
    assert sg212_incomparable.check(CheckContext(study)) == []


def test_the_same_shape_in_another_mode_or_on_another_gpu_model_is_its_own_group(tmp_path):
    eager_800 = shard_record(1, 2, [("fp16", 8.377, "800x800")], 0, "GPU-a")
    compiled_800 = shard_record(2, 2, [], 1, "GPU-b")
    compiled_800["results"] = [latency("fp8", 5.2, "800x800", backend="pytorch", mode="compile", method=dict(EAGER))]
    template = HEADER + "fp16 eager against FP8 compiled: {{ study.ratio(study.one(kind='latency', variant='fp8'), " \
                        "study.one(kind='latency', variant='fp16')) }}.\n"
    study = load(tmp_path, records=[eager_800, compiled_800], template=template)
    assert [f.message for f in sg212_incomparable.check(CheckContext(study))
            if "different shards" in f.message] == []  # eager against compile is the timing signature's finding
    other_gpu = shard_record(2, 2, [("fp8", 9.061, "800x800")], 1, "GPU-b")
    other_gpu["provenance"]["gpu"] = "NVIDIA B200"
    study = load(tmp_path / "gpus", records=[eager_800, other_gpu], template=template)
    assert [f for f in sg212_incomparable.check(CheckContext(study)) if "different shards" in f.message] == []


def test_an_explanation_labels_it_in_the_known_gaps(tmp_path):
    from studygen.checks import run_checks
    from studygen.findings import NOTICE

    records = [shard_record(1, 2, [("fp16", 8.377, "800x800")], 0, "GPU-a"),
               shard_record(2, 2, [("fp8", 9.061, "800x800")], 1, "GPU-b")]
    text = "fp16 and FP8 at 800 x 800 were timed by two shards on two GPUs of one host, not interleaved."
    study = load(tmp_path, records=records, template=HEADER + RATIO + "{% for gap in study.known_gaps() %}- {{ gap }}\n{% endfor %}",
                 study=spec(explanations=[{"code": "SG212", "match": "different shards of job h200", "text": text}]))
    finding = next(f for f in run_checks(study) if f.code == "SG212")
    assert finding.severity == NOTICE and finding.waived_reason == "explained: " + text
    assert any(text in line for line in readme_lines(study))


def test_kernel_times_from_two_shards_are_not_latencies(tmp_path):
    first, second = shard_record(1, 2, [], 0, "GPU-a"), shard_record(2, 2, [], 1, "GPU-b")
    first["results"] = [kernel_time("fp16", {"GEMM": 0.41}, "800x800", backend="pytorch", mode="eager")]
    second["results"] = [kernel_time("fp8", {"GEMM": 0.30}, "800x800", backend="pytorch", mode="eager")]
    template = HEADER + "{{ study.table(index=('shape',), variants=('fp16', 'fp8'), kind='kernel_time', group='GEMM') }}\n"
    study = load(tmp_path, records=[first, second], template=template)
    assert any("0.41" in line and "0.3" in line for line in readme_lines(study))  # both shards in one table row
    assert sg212_incomparable.check(CheckContext(study)) == []


def test_each_mixed_output_is_its_own_finding_and_a_row_without_shape_names_none(tmp_path):
    # two ranges on two lines, each mixing TensorRT 10 flags with TensorRT 11 defaults: two findings;
    # the fp8 rows state no shape, and their text says nothing of one
    def unshaped(variant, value_ms):
        result = latency(variant, value_ms)
        del result["shape"]
        return result

    records = [
        record("trt10", [latency("fp16", 6.10), unshaped("fp8", 4.4)], collected_provenance(tensorrt="10.16.1")),
        record("trt11", [latency("fp16", 5.889), unshaped("fp8", 4.1)], collected_provenance(tensorrt="11.4.0.106")),
    ]
    template = HEADER + RANGE + "\nfp8 latency: {{ study.span(study.figures(kind='latency', variant='fp8')) }}.\n"
    study = load(tmp_path, records=records, template=template)
    findings = sg212_incomparable.check(CheckContext(study))
    assert [finding.line for finding in findings] == [line_of(study, "fp16 latency:"), line_of(study, "fp8 latency:")]
    assert findings[1].message.startswith("range puts latencies measured differently together: 4.4 ms (fp8, job "
                                          "trt10): TensorRT engine, GPU compute time, CUDA graphs off")

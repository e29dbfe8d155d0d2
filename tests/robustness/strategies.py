"""Hypothesis strategies: run records built from the structure of
schemas/run_record.schema.json, mutations of them, junk files, and Markdown
documents with tables and prose (figures, ranges, ratios, units)."""

from __future__ import annotations

import json

from hypothesis import strategies as st

# Any text a hand-edited record might hold: pipes, backticks, HTML, newlines,
# '$' (matplotlib mathtext, off in figures), non-ASCII. Surrogates cannot be written as UTF-8.
TEXT_CHARS = st.characters(blacklist_categories=("Cs",))
ASCII_CHARS = "".join(chr(c) for c in range(32, 127)) + "\n\t"
text = st.one_of(st.text(ASCII_CHARS, max_size=30), st.text(TEXT_CHARS, max_size=30))
nonempty_text = st.one_of(st.text(ASCII_CHARS, min_size=1, max_size=30), st.text(TEXT_CHARS, min_size=1, max_size=30))
tricky_text = st.one_of(text, st.sampled_from(["a | b", "<script>x</script>", "`code`", "line\nbreak", "\\", "", " "]))
identifier = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._-]{0,15}", fullmatch=True)

VARIANTS = ["fp16", "fp8"]  # the tiny study's variants: a record naming another one is refused (SG202)
variant = st.sampled_from(VARIANTS)
# no subnormals: a record's reader refuses them (no measurement is below 2.2e-308)
finite = st.floats(allow_nan=False, allow_infinity=False, allow_subnormal=False, width=64)
# the schemas bound what a figure may be (times within an hour, 3,600,000 ms; a throughput below 10**9; counts):
# each strategy reaches the bound it draws for
HOUR_MS = 3_600_000
non_negative = st.one_of(
    st.integers(0, HOUR_MS),
    st.floats(0, 1e6, allow_nan=False, allow_infinity=False, allow_subnormal=False),
    st.sampled_from([0, 0.0, 5.889, 14.747, 1e-9, HOUR_MS, 0.1 + 0.2]),
)
positive = st.one_of(st.integers(1, HOUR_MS), st.floats(1e-9, 1e6, allow_nan=False, allow_infinity=False),
                     st.sampled_from([5.889, 1e-9, HOUR_MS, 0.1 + 0.2]))
any_number = st.one_of(st.integers(-(10**12), 10**12), finite)


def bounded(low, high):
    """Integers and floats from ``low`` to ``high``, both ends included."""
    return st.one_of(st.integers(int(low), int(high)), st.sampled_from([low, high]),
                     st.floats(low, high, allow_nan=False, allow_infinity=False, allow_subnormal=False))


signed_ms = bounded(-HOUR_MS, HOUR_MS)  # a delta: an hour either way
cv = bounded(0, 1000)
# a COCO AP or AR: [0, 1], or pycocotools' -1 marker (no ground truth in that area range)
coco_value = st.one_of(st.just(-1), st.floats(0, 1, allow_nan=False, allow_infinity=False, allow_subnormal=False))
shape = st.builds(lambda h, w: f"{h}x{w}", st.integers(1, 5000), st.integers(1, 5000))
version = st.one_of(st.none(), st.from_regex(r"[0-9]{1,2}(\.[0-9]{1,3}){0,3}", fullmatch=True), text)
gpu = st.one_of(st.none(), st.sampled_from(["NVIDIA B200", "NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-40GB"]), text)
COCO_STATS = ["AP", "AP50", "AP75", "APs", "APm", "APl", "AR1", "AR10", "AR100", "ARs", "ARm", "ARl"]


def range_of(numbers=any_number):
    """A stated range (min, max, over); min may exceed max, as the schema allows."""
    return st.fixed_dictionaries({"min": numbers, "max": numbers, "over": nonempty_text})


def one_of_keys(*alternatives):
    """A dict holding exactly one of the ``(key, strategy)`` alternatives (the schema's oneOf)."""
    return st.one_of(*(st.builds(lambda v, k=key: {k: v}, strategy) for key, strategy in alternatives))


COMMON_OPTIONAL = {
    "shape": shape,
    "batch": st.integers(1, 64),
    "backend": st.sampled_from(["tensorrt", "pytorch", "onnxruntime", "other"]),
    "mode": st.sampled_from(["engine", "eager", "compile"]),
    "dataset": identifier,
    "approximate": st.booleans(),
    "source_locator": text,
    "note": tricky_text,
    "unstable": st.booleans(),
    "unstable_reason": tricky_text,
}


def in_order(stats: dict, names: tuple[str, ...], mean: str | None = None) -> dict:
    """``stats`` with the values of ``names`` (ranked lowest first) that it holds sorted into that order, and
    ``mean`` moved inside their range: the statistics any set of timings gives (a record whose statistics
    are out of order is refused, studygen.records.order)."""
    present = [name for name in names if name in stats]
    ordered = dict(stats, **dict(zip(present, sorted(stats[name] for name in present))))
    if mean in ordered and present:
        low, high = ordered[present[0]], ordered[present[-1]]
        ordered[mean] = min(max(ordered[mean], low), high) if {"min", "max"} & set(present) else ordered[mean]
    return ordered


def result(kind: str, required: dict, optional: dict | None = None, oneof=None):
    optional = {k: v for k, v in {**COMMON_OPTIONAL, **(optional or {})}.items() if k not in required}
    base = st.fixed_dictionaries({"kind": st.just(kind), "variant": variant, **required}, optional=optional)
    if oneof is None:
        return base
    return st.builds(lambda a, b: {**a, **b}, base, oneof)


def value_of_its_statistics(latency: dict) -> dict:
    """``latency`` with ``value_ms`` the statistic it names when its statistics hold that one, and within
    their min..max: what a collector writes (a value its own statistics contradict is refused,
    studygen.records.order.stated_value_disagreement). Statistics of at most 0 cannot hold a value above 0:
    dropped."""
    stats = latency.get("statistics_ms")
    if not stats:
        return latency
    if stats.get("max", 1) <= 0 or stats.get(latency["statistic"], 1) <= 0:
        return {name: value for name, value in latency.items() if name != "statistics_ms"}
    value = stats.get(latency["statistic"], latency["value_ms"])
    value = max(value, stats.get("min", value))  # raised to the min first: the max's default is then that value
    value = min(value, stats.get("max", value))
    return {**latency, "value_ms": value}


latency = result("latency", {
    "timing": st.sampled_from(["gpu_compute", "host_latency", "end_to_end", "enqueue", "h2d", "d2h", "unspecified"]),
    "statistic": st.sampled_from(["median", "mean", "min", "max", "p90", "p95", "p99", "unspecified"]),
    "value_ms": positive,
}, {
    "statistics_ms": st.dictionaries(st.sampled_from(["min", "max", "mean", "median", "std", "p90", "p99", "p99.9"]),
                                     non_negative, max_size=4).map(
        lambda stats: in_order(stats, ("min", "median", "p90", "p99", "p99.9", "max"), mean="mean")),
    "distribution": st.fixed_dictionaries({}, optional={
        "samples": st.integers(1, 10**6), "repeats": st.integers(1, 50), "iterations_per_repeat": st.integers(1, 1000),
        "warmup_iterations": st.integers(0, 100), "repeat_medians_ms": st.lists(positive, max_size=8),
        "median_ms": positive, "mean_ms": positive, "std_ms": non_negative, "p90_ms": positive,
        "p99_ms": positive, "cv": cv}).map(lambda given: in_order(given, ("median_ms", "p90_ms", "p99_ms"))),
    "method": st.fixed_dictionaries({}, optional={
        "timer": st.sampled_from(["trtexec", "cuda-events"]), "cuda_graph": st.one_of(st.none(), st.booleans()),
        "data_transfers": st.one_of(st.none(), st.booleans()), "spin_wait": st.one_of(st.none(), st.booleans()),
        "interleaved": st.one_of(st.none(), st.booleans()), "flags": st.lists(text, max_size=3)}),
    "throughput_qps": non_negative,
    "fp8_evidence": st.fixed_dictionaries({"kernels": st.lists(
        st.fixed_dictionaries({"name": text, "time_ms": non_negative}, optional={"calls": st.integers(0, 10**6)}),
        min_size=1, max_size=3)}, optional={"fake_quant_kernels": st.integers(0, 100)}),
}).map(value_of_its_statistics)
# a plan in MiB: above 0, at most 2**20 MiB (1 TiB), the schema's bound
plan_mib = st.one_of(st.integers(1, 2**20), st.sampled_from([1e-9, 2**20]),
                    st.floats(1e-9, 2**20, allow_nan=False, allow_infinity=False, allow_subnormal=False))
plan_size = result("plan_size", {}, oneof=one_of_keys(("value_bytes", st.integers(1, 2**40)), ("value_mib", plan_mib)))
coco_ap = result("coco_ap", {"statistic": st.sampled_from(COCO_STATS), "value": coco_value, "dataset": identifier},
                 {"evaluator": text})
coco_ap_delta = result("coco_ap_delta", {"statistic": st.sampled_from(COCO_STATS), "delta_points": bounded(-100, 100)},
                       {"reference_variant": variant})
agreement = result("agreement", {
    "reference_variant": variant,
    "metric": st.sampled_from(["logit_correlation", "precision", "recall", "nonfinite_count", "max_abs_diff"]),
}, {"images": st.integers(0, 5000)}, oneof=one_of_keys(("value", bounded(-(10**12), 10**12)),
                                                      ("value_range", range_of(bounded(-(10**12), 10**12)))))
kernel_group = st.builds(
    lambda base, value: {**base, **value},
    st.fixed_dictionaries({"group": st.one_of(st.sampled_from(["GEMM/MatMul", "GridSample", "other"]), text)}),
    one_of_keys(("time_ms", non_negative), ("time_ms_range", range_of(bounded(0, HOUR_MS))),
                ("share_percent_range", range_of(bounded(0, 100)))),
)
kernel_time = result("kernel_time", {"groups": st.lists(kernel_group, min_size=1, max_size=4)}, {
    "profiled_total_ms": positive, "unclassified_ms": non_negative,
    "unclassified_share": st.floats(0, 1, allow_subnormal=False), "iterations": st.integers(1, 100), "rows_listed": st.booleans(),
})
kernel_time_delta = result("kernel_time_delta", {"reference_variant": variant, "group": text},
                           oneof=one_of_keys(("delta_ms", signed_ms), ("delta_ms_range", range_of(signed_ms))))
not_measured = result("not_measured", {"metric": text, "reason": nonempty_text})
quantization = result("quantization", {"quantized_modules": st.integers(0, 10**4)},
                      {"total_modules": st.integers(0, 10**4), "module_names": st.lists(text, max_size=3)})
engine_layers = result("engine_layers", {
    "layer_count": st.integers(0, 10**4),
    "layers": st.lists(st.fixed_dictionaries({"name": text}, optional={"layer_type": text, "tactic": text}), max_size=3),
})
any_result = st.one_of(latency, plan_size, coco_ap, coco_ap_delta, agreement, kernel_time, kernel_time_delta,
                       not_measured, quantization, engine_layers)

provenance = st.builds(
    lambda base, origin: {**base, **origin},
    st.fixed_dictionaries({
        "gpu": gpu,
        "software": st.dictionaries(
            st.one_of(st.sampled_from(["tensorrt", "torch", "cuda", "transformers", "modelopt", "python"]), identifier),
            version, max_size=5),
        "checkpoint": st.fixed_dictionaries(
            {"id": text, "weights": st.sampled_from(["pretrained", "random-init"])},
            optional={"revision": st.one_of(st.none(), text), "seed": st.one_of(st.none(), st.integers(0, 2**31))}),
    }, optional={
        "driver": st.one_of(st.none(), text), "gpu_count": st.integers(0, 8),
        "collected_at": st.one_of(st.none(), st.just("2025-01-01T00:00:00Z"), text),
        "repository_commit": st.one_of(st.none(), text), "notes": st.lists(tricky_text, max_size=2),
    }),
    one_of_keys(
        ("collector", st.fixed_dictionaries({"name": nonempty_text, "version": text}, optional={"command": text})),
        ("source", st.fixed_dictionaries({"citation": nonempty_text}, optional={"path": text, "url": text})),
    ),
)


def run_records(family: str):
    """Valid run records of ``family`` (job id = file stem, chosen by the caller)."""
    return st.fixed_dictionaries({
        "schema_version": st.just(1),
        "job_id": identifier,
        "family": st.just(family),
        "provenance": provenance,
        "results": st.lists(any_result, max_size=6),
    }, optional={"description": text, "notes": st.lists(tricky_text, max_size=3), "synthetic": st.booleans()})


# ---- invalid input -----------------------------------------------------------

json_scalar = st.one_of(st.none(), st.booleans(), any_number, text)
json_value = st.recursive(json_scalar, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                               st.dictionaries(text, inner, max_size=3)), max_leaves=8)


def paths_in(document, prefix=()):
    """Every path (tuple of keys and indexes) to a node of a JSON document, root included."""
    yield prefix
    if isinstance(document, dict):
        for key, value in document.items():
            yield from paths_in(value, prefix + (key,))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            yield from paths_in(value, prefix + (index,))


def _type_name(value) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return {str: "string", list: "array", dict: "object", type(None): "null"}[type(value)]


OTHER_TYPE = {
    "boolean": st.one_of(st.integers(), text, st.none()),
    "number": st.one_of(text, st.booleans(), st.none(), st.lists(st.integers(), max_size=2)),
    "string": st.one_of(any_number, st.booleans(), st.none(), st.dictionaries(text, st.integers(), max_size=2)),
    "array": st.one_of(text, any_number, st.dictionaries(text, st.integers(), max_size=2)),
    "object": st.one_of(text, any_number, st.lists(st.integers(), max_size=2), st.none()),
    "null": st.one_of(text, any_number, st.booleans()),
}
MUTATIONS = ("wrong type", "delete", "unknown key", "any value", "out of range")


def mutate(data, document):
    """``document`` with one node changed: a value of another type, a deleted
    key or item, an added unknown key, any JSON value, or an out-of-range number.
    Returns (mutated document, description)."""
    import copy

    document = copy.deepcopy(document)
    path = data.draw(st.sampled_from(list(paths_in(document))), label="path")
    how = data.draw(st.sampled_from(MUTATIONS), label="mutation")
    if not path:
        return data.draw(json_value, label="root"), f"root replaced ({how})"
    parent = document
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    current = parent[last]
    if how == "wrong type":
        parent[last] = data.draw(OTHER_TYPE[_type_name(current)], label="value")
    elif how == "delete":
        del parent[last]
    elif how == "unknown key":
        target = current if isinstance(current, dict) else parent
        if isinstance(target, dict):
            target[data.draw(text, label="key")] = data.draw(json_value, label="value")
        else:
            target.append(data.draw(json_value, label="value"))
    elif how == "any value":
        parent[last] = data.draw(json_value, label="value")
    else:
        parent[last] = data.draw(st.sampled_from([-1, -0.5, 10**30, -(10**30), 2**63, 1e308, -1e-300, 0]), label="value")
    return document, f"{how} at /{'/'.join(map(str, path))}"


def truncated(text_value: str):
    return st.integers(0, max(0, len(text_value) - 1)).map(lambda n: text_value[:n])


junk_bytes = st.one_of(
    st.binary(max_size=300),
    st.text(max_size=300).map(lambda t: t.encode("utf-8", "surrogatepass")),
    json_value.map(lambda v: json.dumps(v).encode()),
    st.sampled_from([b"", b"   \n", b"{", b"[1,", b'{"schema_version": NaN}', b'{"a": Infinity}', b"\xef\xbb\xbf{}",
                     b"\xff\xfe{\x00}\x00", b'{"schema_version": 1e999}', b"null", b'"string"', b"[]"]),
)


# ---- Markdown ------------------------------------------------------------------

UNITS = ["ms", " ms", "s", "%", "x", " MiB", " GB", "", " points", " images/s"]
_number_text = st.builds(lambda value, digits: f"{value:.{digits}f}",
                         st.floats(0, 20000, allow_nan=False, allow_infinity=False, allow_subnormal=False), st.integers(0, 4))
_unit = st.sampled_from(UNITS)
figure_text = st.one_of(
    st.builds(lambda n, u: f"{n}{u}", _number_text, _unit),
    st.builds(lambda a, b, u: f"{a} to {b}{u}", _number_text, _number_text, _unit),
    st.builds(lambda a, b, u: f"{a}–{b}{u}", _number_text, _number_text, _unit),
    st.builds(lambda a, b, u: f"between {a} and {b}{u}", _number_text, _number_text, _unit),
    st.builds(lambda a, b: f"{a} ± {b} ms", _number_text, _number_text),
    st.builds(lambda n: f"about {n} ms", _number_text),
    st.builds(lambda n: f"{n}x faster", _number_text),
    st.builds(lambda a, b: f"{a} / {b}", _number_text, _number_text),
    st.builds(lambda a, b: f"{a} ({b})", _number_text, _number_text),
)
SENTENCES = [
    "Latency ranges from {a} to {b} across every GPU.",
    "FP8 is {a} faster than fp16 on {l}.",
    "The median is {a} and p99 is {b}; p90 is {c}.",
    "Plan size drops from {a} to {b}, a {c} reduction.",
    "AP changes by {a} against the fp16 engine ({b} vs {c}).",
    "The difference of {a} is within noise.",
    "Differences below {a} are noise, measured over {b} repeats.",
    "NVFP4 was not measured; it would be {a} faster.",
    "{l} was not tried, so expect about {a}.",
    "GEMM time is {a} out of {b} in total.",
    "On {l}, {a} vs {b} means a ratio of {c}.",
    "{t}",
]
label = st.one_of(st.sampled_from(["B200", "H100", "800 x 800", "TensorRT 11.4", "fp16", "FP8", "GEMM/MatMul"]), text)
sentence = st.builds(lambda template, a, b, c, label, t: template.format(a=a, b=b, c=c, l=label, t=t),
                     st.sampled_from(SENTENCES), figure_text, figure_text, figure_text, label, text)
HEADERS = ["GPU", "TensorRT", "Shape", "Variant", "fp16 (ms)", "FP8 (ms)", "fp16 / FP8", "median ms", "p90 ms",
           "p99 ms", "min / max ms", "Plan MiB", "AP", "AP50", "Notes", "Range", "Share (%)", "Speed-up"]
cell = st.one_of(figure_text, _number_text, label, st.sampled_from(["", "n/a", "-", "not measured", "a \\| b"]))


@st.composite
def tables(draw):
    headers = draw(st.lists(st.sampled_from(HEADERS), min_size=1, max_size=6, unique=True))
    rows = []
    for _ in range(draw(st.integers(0, 8))):
        width = len(headers) + draw(st.sampled_from([0, 0, 0, 0, -1, 1]))  # now and then a row with a cell too few or many
        cells = [draw(cell).replace("|", "\\|").replace("\n", " ") for _ in range(max(1, width))]
        rows.append("| " + " | ".join(cells) + " |")
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|", *rows]
    return "\n".join(lines)


fence = st.builds(lambda body, closed: "```\n" + body + ("\n```" if closed else ""), text, st.booleans())
heading = st.builds(lambda level, t: "#" * level + " " + t, st.integers(1, 4), st.one_of(label, sentence))
bullets = st.lists(sentence, min_size=1, max_size=4).map(lambda items: "\n".join(f"- {i}" for i in items))
block = st.one_of(sentence, tables(), heading, bullets, fence, st.lists(sentence, max_size=3).map(" ".join))
markdown_documents = st.lists(block, min_size=1, max_size=8).map(lambda blocks: "\n\n".join(blocks) + "\n")

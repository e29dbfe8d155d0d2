"""Readers added in session 23 that went quadratic on one long line or clause
(an attack, session 23): a garbled ``--dumpLayerInfo`` line held collect
trtexec for hours, and a study-file field naming one unmeasured GPU or two
variants tens of thousands of times held check for minutes.

Each case runs in a child process under a timeout: a budget for the test run
only (before the fix each ran far past it), no figure asserted; the values it
prints are asserted.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from studygen.checks.prose_variant_rows import _named_variants, _names
from studygen.collect.trtexec.printed_layers import printed_layer
from tests.conftest import REPO


def child(code: str, cwd=None):
    """What the Python ``code`` prints as JSON, run in a child process under a two-minute budget."""
    done = subprocess.run([sys.executable, "-c", code], cwd=cwd, env={**os.environ, "PYTHONPATH": str(REPO)},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_garbled_dump_layer_info_line_of_a_megabyte_reads_as_no_layer_or_its_own_type():
    # 40,000 heads with no "], Outputs: ": each was a start for a scan to the line's end
    # 1 MB of spaces in an input's type: each split of the run between the type and "\s*" was tried
    read = child(
        "import json; from studygen.collect.trtexec.printed_layers import printed_layer as p\n"
        "heads = p('Name: a' + ', LayerType: x, Inputs: [' * 40000)\n"
        "spaces = p('Name: n, LayerType: Conv, Inputs: [ { Format/Datatype: Half' + ' ' * 1000000 + '}], Outputs: ')\n"
        "print(json.dumps([heads, spaces and [spaces[0], spaces[1].work, list(spaces[1].input_types)]]))")
    assert read == [None, ["n", "Conv", ["Half"]]]


def test_a_dump_layer_info_line_reads_as_before():
    line = ("Name: conv1 + Relu, LayerType: CaskConvolution, Inputs: [ { Name: 176, Location: Device, Format/Datatype: "
            "Row major Int8 format  }, { Name: w, Format/Datatype: Row major linear FP32 }], Outputs: [ { Name: 191, "
            "Format/Datatype: Thirty-two wide channel vectorized row major Int8 format }], ParameterType: Convolution, "
            "TacticName: sm80_xmma_fprop_implicit_gemm_interleaved_i8i8_i8i32_f32, Metadata: x")
    name, kernel = printed_layer(line)
    assert (name, kernel.work, kernel.tactic, kernel.input_types) == (
        "conv1 + Relu", "CaskConvolution Convolution", "sm80_xmma_fprop_implicit_gemm_interleaved_i8i8_i8i32_f32",
        ("Row major Int8 format",))
    # no "], Outputs: " after the inputs: no layer, as the single pattern read it
    assert printed_layer("Name: a, LayerType: b, Inputs: [ { Format/Datatype: Half }]") is None


def test_a_decision_naming_an_unmeasured_gpu_forty_thousand_times_is_read_once_a_clause(tmp_path):
    # one clause of 200 KB: each A100 read the whole clause again (its sentence, denial, result and README tests)
    found = child(
        "import json, pathlib\n"
        "from studygen.checks import sg224_unmeasured_gpu\n"
        "from tests.checks.test_sg224_unmeasured_gpu import findings\n"
        "denied = findings(pathlib.Path('denied'), summary='A100 ' * 40000 + 'is not 2x faster.')\n"
        "stated = findings(pathlib.Path('stated'), summary='Not shipped: ' + 'A100 ' * 40000 + 'is 2x faster.')\n"
        "print(json.dumps([len(denied), len(stated), stated[0].key, stated[0].line, stated[-1].line]))", cwd=tmp_path)
    # the summary starts on line 26 of the study file (YAML folds it over 2,501 lines); one finding a name a clause
    assert found == [0, 1, "/decision/summary A100", 26, 26]


def test_a_clause_naming_two_variants_a_hundred_thousand_times_each_names_two():
    names = _names({"fp16": {}, "fp32": {"label": "fp32 baseline"}, "int8": {}, "int8-qdq": {}})
    # each match was tested against every earlier one: 200,000 matches ran for hours
    assert child("import json; from studygen.checks.prose_variant_rows import _named_variants, _names\n"
                 "names = _names({'fp16': {}, 'fp32': {}})\n"
                 "print(json.dumps(_named_variants('fp32 is slower than fp16, ' * 100000, names)))") == ["fp32", "fp16"]
    # a longer name keeps the text it shares with a shorter one, a label names its variant
    assert _named_variants("int8-qdq against the fp32 baseline and fp16", names) == ["int8-qdq", "fp32", "fp16"]
    assert _named_variants("int8-qdq beats int8", names) == ["int8-qdq", "int8"]


def test_a_table_cell_of_200_kb_of_commas_before_a_percent_is_read_once():
    # '1' + 200,000 commas + '%(x': the change-cell shape tried every split of the comma run between the figure and
    # what follows it (attack30: 9.6 s of CPU at 50,000 commas, quadratic); the shape of a real change cell stays read
    read = child(
        "import json; from studygen.lint.cell_changes import _cell_change as c\n"
        "long = c('1' + ',' * 200000 + '%(x')\n"
        "kept = [(f.value, f.unit, g.value) for f, g in (c('1,234.5 ms (+3.1%)'), c('**0.52x** (−48%)'))]\n"
        "print(json.dumps([long, kept]))")
    assert read == [None, [[1234.5, "ms", 3.1], [0.52, "x", -48.0]]]


def test_a_best_of_sentence_with_200_kb_of_commas_and_spaces_reads_its_cause_once():
    # 'alpha is the fastest on H100' + 100,000 ', ' + 'than beta.': the cause reader tried each place of the run as a
    # start and scanned the run from there (attack30: 20,000 characters took 8.4 s of CPU, quadratic)
    table = "| Variant | Latency (ms) |\\n|---|---|\\n| alpha | 1.50 |\\n| beta | 3.10 |\\n| gamma | 2.20 |\\n"
    read = child(
        "import json; from studygen.lint import lint_text\n"
        f"table = {table!r}\n"
        "counts = [len(lint_text('# T\\n\\n' + table + '\\nalpha is the fastest on H100' + run + ' than beta.\\n', 'd.md'))\n"
        "          for run in (', ' * 100000, ' ' * 200000, ', due to its clocks')]\n"
        "print(json.dumps(counts))")
    assert read == [0, 0, 0]


def test_a_clause_quoting_one_figure_four_thousand_times_is_left_unread_once_counted(tmp_path):
    # SG222's other-run reader counted a clause's quotes by walking every quote of the study, and read the clause's
    # words before that count, once for each of its quotes (attack30: 2,222 quotes of '12.34 ms' in 20 KB took 37 s)
    found = child(
        "import json, pathlib\n"
        "from tests.checks.test_sg222_other_run import findings\n"
        "many = 'On the TITAN V the fp16 median is 2.468 ms ' * 4500 + 'and more. '\n"
        "read = findings(pathlib.Path('read'), many + 'On the TITAN V the fp16 median is 2.468 ms.')\n"
        "print(json.dumps([len(read), read[0].key, read[0].line]))", cwd=tmp_path)
    # the quotes of the long clause are not read (more than one figure of the unit); the last sentence's is
    assert found[:2] == [1, "/decision/summary 2.468 ms of another run"]


def test_a_sentence_of_thousands_of_kernel_time_multiples_reads_each_against_its_sentence_once(tmp_path):
    # SG225 read each multiple's sentence again for it: its clause's denial and citation words, its two runs, its
    # group names, the bounding words from the text's start (attack30: 20,000 characters of 'attention doubles on the
    # H100 against the A100' took 10 s of CPU, 40,000 took 16 s, quadratic)
    found = child(
        "import json, pathlib\n"
        "from tests.checks.test_sg225_kernel_shares import findings\n"
        "doubles = findings(pathlib.Path('a'), \"The A10 doubles the L40S's copy time and \" * 5000 + 'more.')\n"
        "less = findings(pathlib.Path('b'), 'The A10 spends 27% less in copy kernels than the L40S and ' * 4000 + 'more.')\n"
        "print(json.dumps([len(doubles), sorted({f.key for f in doubles}), len(less), sorted({f.key for f in less})]))",
        cwd=tmp_path)
    assert found == [5000, ["/decision/summary copy doubles"], 4000, ["/decision/summary copy 27% less"]]

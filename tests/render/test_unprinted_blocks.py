"""A block a family template defines that no template it extends has is
printed nowhere by Jinja: a misspelt override (``reslts``) or one of a block
the generic template does not have lost its text without a word (a leftover
of session 27's trial). Render refuses it at the template's line; check
reports the refusal through SG201. Nested blocks and blocks the templates call
as ``self.NAME()`` are printed and pass. Templates and figures made up here."""

from __future__ import annotations

import pytest

from studygen.checks import CheckContext, run_checks
from studygen.errors import TemplateError
from studygen.render.engine import render_markdown

from ..checks.studies import codes, latency, load, record

RECORDS = [record("a10-a", [latency("fp16", 0.2417, "64x64", batch=2)])]
EXTENDS = '{% extends "studygen/generic.md.j2" %}\n'


def _load(tmp_path, template):
    return load(tmp_path, records=RECORDS, template=EXTENDS + template)


def test_a_misspelt_override_is_refused_at_its_line(tmp_path):
    study = _load(tmp_path, "{% block summary %}Kept.{% endblock %}\n\n{% block reslts %}\nLost.\n{% endblock %}\n")
    with pytest.raises(TemplateError) as raised:
        render_markdown(study)
    error = raised.value
    assert error.place.line == 4 and error.place.path.endswith(".md.j2")
    assert error.message.startswith("template error: block 'reslts' is not a block of studygen/generic.md.j2 ")
    assert "printed nowhere" in error.message and "results" in error.message.split("blocks there: ")[1]
    (finding,) = codes(run_checks(study), "SG201")
    assert ".md.j2:4: template error: block 'reslts' is not a block of" in finding.message


def test_overrides_nested_blocks_and_called_blocks_pass(tmp_path):
    template = ("{% block summary %}Summary {% block aside %}with an aside{% endblock %}.{% endblock %}\n"
                "{% block method %}{{ self.footnote() }}{% endblock %}\n"
                "{% block footnote %}Timed once at batch 2.{% endblock %}\n")
    study = _load(tmp_path, template)
    context = CheckContext(study)
    assert context.render_error is None
    readme = context.rendered.readme
    assert "Summary with an aside." in readme and "Timed once at batch 2." in readme


def test_the_generic_template_itself_and_a_plain_extension_pass(tmp_path):
    assert CheckContext(_load(tmp_path, "")).render_error is None


def test_the_built_in_template_calls_only_blocks_of_its_own(tmp_path):
    # the refusal reads no tree of a built-in template (its code is generated): that holds while it calls none
    # of a child's blocks as self.NAME()
    from jinja2 import nodes

    from studygen.render.engine import make_environment

    env = make_environment([tmp_path])
    source = env.loader.get_source(env, "studygen/generic.md.j2")[0]
    tree = env.parsed(source)
    called = {node.attr for node in tree.find_all(nodes.Getattr)
              if isinstance(node.node, nodes.Name) and node.node.name == "self"}
    blocks = {block.name for block in tree.find_all(nodes.Block)}
    assert len(blocks) == 19 and called <= blocks and not tree.find_all(nodes.Extends)


def test_the_blocks_an_error_lists_are_bounded(tmp_path):
    # a base of 500 blocks: the error listed every one (one line of about 4 KB here, 15 KB for 2,000 blocks)
    study = load(tmp_path, records=RECORDS, template='{% extends "base.md.j2" %}\n{% block b007 %}{% endblock %}\n'
                                                        '{% block stray %}Lost.{% endblock %}\n')
    (tmp_path / "templates" / "base.md.j2").write_text("".join(f"{{% block b{i:03d} %}}{{% endblock %}}"
                                                               for i in range(500)))
    with pytest.raises(TemplateError) as raised:
        render_markdown(study)
    listed = raised.value.message.split("blocks there: ")[1]
    assert listed == ", ".join(f"b{i:03d}" for i in range(30)) + " and 470 more)"
    assert raised.value.place.line == 3


def _chain_of(tmp_path, depth: int, last: str = "studygen/generic.md.j2"):
    """A study whose template t0 extends t1, ..., t{depth-1} extends ``last``; each overrides results with super()."""
    study = load(tmp_path, records=RECORDS, template='{% extends "t1.md.j2" %}\n')
    for index in range(1, depth):
        parent = f"t{index + 1}.md.j2" if index + 1 < depth else last
        (tmp_path / "templates" / f"t{index}.md.j2").write_text(
            f'{{% extends "{parent}" %}}\n{{% block results %}}{{{{ super() }}}} level {index}{{% endblock %}}\n')
    return study


def test_a_chain_of_extends_deeper_than_the_limit_is_refused_at_once(tmp_path):
    # 40 templates, each extending the next and printing its results with super(): the old code rendered it; at
    # 150 Python's recursion ran out inside Jinja ('maximum recursion depth exceeded', naming a template in the
    # middle), and at 500 the block check asked Jinja's template cache (400 templates) for every ancestor of every
    # template (54 s and 527 MB before that error)
    from studygen.render.template_chain import MAX_EXTENDS

    study = _chain_of(tmp_path, 40)
    with pytest.raises(TemplateError) as raised:
        render_markdown(study)
    error = raised.value
    assert error.message == (f"template error: templates extend one another more than {MAX_EXTENDS} deep "
                             f"(t{MAX_EXTENDS}.md.j2 extends t{MAX_EXTENDS + 1}.md.j2); at most {MAX_EXTENDS} "
                             "templates may stand above the study's")
    assert error.place.path.endswith(f"t{MAX_EXTENDS}.md.j2") and error.place.line == 1
    (finding,) = codes(run_checks(study), "SG201")
    assert "templates extend one another more than" in finding.message


def test_a_chain_at_the_limit_renders(tmp_path):
    from studygen.render.template_chain import MAX_EXTENDS

    # the study's template and MAX_EXTENDS above it: t1 ... t{MAX_EXTENDS - 1} and the generic one
    readme = render_markdown(_chain_of(tmp_path, MAX_EXTENDS))
    assert "level 3 level 2 level 1" in readme and f"level {MAX_EXTENDS - 1}" in readme


def test_templates_that_extend_each_other_in_a_loop_are_refused_naming_it(tmp_path):
    # the old code followed the loop until Python's recursion ran out: 'maximum recursion depth exceeded'
    study = _chain_of(tmp_path, 3, last="t1.md.j2")
    with pytest.raises(TemplateError) as raised:
        render_markdown(study)
    error = raised.value
    assert error.message == ("template error: templates extend one another in a loop: t1.md.j2, which extends "
                             "t2.md.j2, which extends t1.md.j2")
    assert error.place.path.endswith("t2.md.j2") and error.place.line == 1


def test_a_template_that_includes_itself_is_named_with_the_ways_a_template_recurses(tmp_path):
    # the old message was Python's alone: 'maximum recursion depth exceeded'
    study = load(tmp_path, records=RECORDS, template=EXTENDS + '{% block results %}{% include "loop.md.j2" %}'
                                                              "{% endblock %}\n")
    (tmp_path / "templates" / "loop.md.j2").write_text('{% include "loop.md.j2" %}\n')
    with pytest.raises(TemplateError) as raised:
        render_markdown(study)
    assert raised.value.message == ("template error: maximum recursion depth exceeded: a macro that calls itself, "
                                    "or a template that includes or imports itself, without end")
    assert raised.value.place.path == "templates/loop.md.j2" and raised.value.place.line == 1


def test_an_error_inside_the_generic_template_names_the_studys_template_that_reached_it(tmp_path):
    # importing a template that extends the generic one runs the generic one without the render's names: the
    # old message named the installed package's file by its absolute path, and not the study's template
    study = load(tmp_path, records=RECORDS, template=EXTENDS + '{% block results %}{% import "toy.md.j2" as me %}'
                                                              "{% endblock %}\n")
    with pytest.raises(TemplateError) as raised:
        render_markdown(study)
    error = raised.value
    assert error.place.path == "studygen/generic.md.j2" and error.place.line > 0
    assert error.message.startswith("undefined name in template: 'generated_note' is undefined (reached from ")
    assert error.message.endswith("toy.md.j2 line 1)")

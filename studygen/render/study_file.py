"""The study file as a template reads it (``study.spec``, ``study.decision``,
``study.model``): its mappings and lists, each knowing the study file it came
from and its JSON pointer there (RFC 6901), so that a field a template asks
for and the study file leaves out is an error naming that file and place
(:class:`StudyDataError`), not "'dict object' has no attribute ...". The
values equal the study file's as loaded: helpers and ``==`` see plain dicts
and lists.

A string of a prose field (:data:`studygen.study.placeholders.PROSE_FIELDS`:
the title, the decision summary, reasons, notes, …) is a
:class:`StudyFileText`, which knows its field too: printed as it is (by
``{{ }}``, or by a helper through :func:`as_written`), it is noted as the
study's own words from that field (:func:`studygen.render.produced.written`),
so that a check can name the field, not the README line, for a sentence at
fault. Any operation on it (a slice, ``~``, a filter) gives a plain ``str``:
only text printed as written is the field's."""

from __future__ import annotations

from ..errors import TemplateError
from ..place import Place
from ..records.jsonpos import pointer_part
from ..study.placeholders import is_prose_field
from .produced import written


class StudyDataError(TemplateError):
    """A template asked the study file for something it does not hold; the
    error's place is the study file and the JSON pointer of the mapping or
    list asked (render adds the template line that asked)."""


class StudyFileMapping(dict):
    """A mapping of the study file with its ``source`` (the file as shown) and ``pointer``."""

    __slots__ = ("source", "pointer")

    def missing(self, name) -> StudyDataError:
        """The error for a field ``name`` this mapping does not hold."""
        fields = ", ".join(sorted(map(str, self))) or "none"
        return StudyDataError(f"the study file has no {str(name)!r} here (its fields: {fields})",
                              path=self.source, pointer=self.pointer or "/")


class StudyFileList(list):
    """A list of the study file with its ``source`` and ``pointer``."""

    __slots__ = ("source", "pointer")

    def missing(self, index) -> StudyDataError:
        """The error for an item ``index`` this list does not hold."""
        return StudyDataError(f"the study file has no {str(index)!r} here (a list of {len(self)} items)",
                              path=self.source, pointer=self.pointer or "/")


class StudyFileText(str):
    """A string of a prose field of the study file, with its ``source`` (the
    file as shown), ``pointer`` and ``field_path`` (keys and indexes from the
    root). It equals and hashes as the plain string; a str subclass takes no
    ``__slots__``, so these live in its ``__dict__``. It has no method of its
    own: a template could call one, and claim its own words for the field."""


# A template author sees a mapping, a list and a string: the sandbox's refusals ("access to attribute 'update' of
# 'dict' object is unsafe") name the type by __name__, which stays that of the type they behave as.
StudyFileMapping.__name__, StudyFileList.__name__, StudyFileText.__name__ = "dict", "list", "str"


def as_written(value, text: str | None = None) -> str:
    """What a helper prints of the study-file string ``value``: ``text`` (by
    default ``value``; the string as the helper prints it, whitespace folded
    or escaped) noted as that field printed as written when ``value`` is a
    :class:`StudyFileText`; otherwise ``text`` as it is."""
    shown = str(value) if text is None else text
    if not isinstance(value, StudyFileText):
        return shown
    return written(shown, Place(value.source, 0, value.pointer), value.field_path)


def study_file_view(value, source: str, pointer: str = "", path: tuple = ()):
    """``value`` (the loaded study file, or a part of it at ``pointer``,
    reached by the keys and indexes ``path``) with every mapping a
    :class:`StudyFileMapping`, every list a :class:`StudyFileList`, each
    knowing ``source`` and its own pointer, and every string of a prose field
    a :class:`StudyFileText`; other values as they are."""
    if isinstance(value, dict):
        out = StudyFileMapping((key, study_file_view(item, source, f"{pointer}/{pointer_part(key)}", (*path, key)))
                               for key, item in value.items())
    elif isinstance(value, list):
        out = StudyFileList(study_file_view(item, source, f"{pointer}/{index}", (*path, index))
                            for index, item in enumerate(value))
    elif isinstance(value, str) and is_prose_field(path):
        out = StudyFileText(value)
        out.field_path = path
    else:
        return value
    out.source, out.pointer = source, pointer
    return out


def missing_field(undefined, holder, name):
    """What a template reading ``name`` of ``holder`` (a study-file mapping
    or list that lacks it) gets: an ``undefined`` (the environment's class)
    that ``is defined`` still tests as undefined and whose any other use
    raises ``holder.missing(name)``, naming the study file and the pointer."""
    return undefined(obj=holder, name=name, exc=lambda _message: holder.missing(name))

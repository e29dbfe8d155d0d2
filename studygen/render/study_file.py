"""The study file as a template reads it (``study.spec``, ``study.decision``,
``study.model``): its mappings and lists, each knowing the study file it came
from and its JSON pointer there (RFC 6901), so that a field a template asks
for and the study file leaves out is an error naming that file and place
(:class:`StudyDataError`), not "'dict object' has no attribute ...". The
values equal the study file's as loaded: helpers and ``==`` see plain dicts
and lists."""

from __future__ import annotations

from ..errors import TemplateError
from ..records.jsonpos import pointer_part


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


# A template author sees a mapping and a list: the sandbox's refusals ("access to attribute 'update' of 'dict'
# object is unsafe") name the type by __name__, which stays that of the type they behave as.
StudyFileMapping.__name__, StudyFileList.__name__ = "dict", "list"


def study_file_view(value, source: str, pointer: str = ""):
    """``value`` (the loaded study file, or a part of it at ``pointer``) with
    every mapping a :class:`StudyFileMapping` and every list a
    :class:`StudyFileList`, each knowing ``source`` and its own pointer;
    other values as they are."""
    if isinstance(value, dict):
        out = StudyFileMapping((key, study_file_view(item, source, f"{pointer}/{pointer_part(key)}"))
                               for key, item in value.items())
    elif isinstance(value, list):
        out = StudyFileList(study_file_view(item, source, f"{pointer}/{index}") for index, item in enumerate(value))
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

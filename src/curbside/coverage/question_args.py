"""The question every coverage tool takes, under the three names callers use: ``q``, ``query``, ``question``.

The coverage spec names it ``query``, its enhanced format ``q``, and agents write ``question``:
one field under three names. ``QuestionArgs`` declares the two synonyms, blanks them, refuses two
different questions at once, and leaves the one question in ``q`` (the synonyms ``None``). A tool's
argument model subclasses it and declares ``q`` itself, with its own examples.
"""

from __future__ import annotations

from pydantic import BaseModel, Field, field_validator, model_validator

__all__ = ["MAX_QUESTION_CHARS", "QuestionArgs"]

MAX_QUESTION_CHARS = 1000


class QuestionArgs(BaseModel):
    q: str | None = Field(None, max_length=MAX_QUESTION_CHARS, description="A question in plain words.")
    query: str | None = Field(None, max_length=MAX_QUESTION_CHARS, description="The same as q (a synonym).")
    question: str | None = Field(None, max_length=MAX_QUESTION_CHARS, description="The same as q (a synonym).")

    @field_validator("q", "query", "question")
    @classmethod
    def _blank_question_is_none(cls, value: str | None) -> str | None:
        return value or None

    @model_validator(mode="after")
    def _one_question(self) -> QuestionArgs:
        texts = {t for t in (self.q, self.query, self.question) if t}
        if len(texts) > 1:
            raise ValueError("q, query and question are one field under three names; give the question once.")
        self.q = texts.pop() if texts else None
        self.query = self.question = None
        return self

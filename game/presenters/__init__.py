"""What people read about games: event log lines and scorecard tables, for the pages, the
admin and the commands. Presenters read models and rulesets; they change nothing."""

from .events import describe
from .scorecards import Header, Row, ScorecardTable, scorecard_table

__all__ = ["Header", "Row", "ScorecardTable", "describe", "scorecard_table"]

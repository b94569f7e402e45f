"""A computer's move keeps its reason: `steps.reason`.

The one-line reason a computer seat gave for a decision ("attacks Avignon: 71% to advance ..."), stored
with the step, so a server restarted, or another server process reading the game, shows it in the log
after the move it explains (it is not part of the record: the rules never read it).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("steps") as batch:
        batch.add_column(sa.Column("reason", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("steps") as batch:
        batch.drop_column("reason")

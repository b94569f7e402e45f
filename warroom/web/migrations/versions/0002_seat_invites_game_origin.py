"""Online seats are claimed with one-time invites; a game remembers what it started from.

`seats.invite_hash`: sha256 of the invite sent for a seat nobody holds yet (the seat's `token_hash`
stays empty until the invite is claimed, and the invite opens nothing after that).
`games.origin`: how the game began (a new game, or an uploaded record: its moves, dice and whether
they could be checked), shown to every seat, so an opponent knows what an online game continues.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("invite_hash", sa.String(64), nullable=True))
        batch.create_unique_constraint("uq_seats_invite_hash", ["invite_hash"])
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("origin", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("origin")
    with op.batch_alter_table("seats") as batch:
        batch.drop_constraint("uq_seats_invite_hash", type_="unique")
        batch.drop_column("invite_hash")

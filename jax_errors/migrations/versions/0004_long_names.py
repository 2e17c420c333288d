"""long names: tags, versions and case names of any length

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-03 23:30:00

PostgreSQL enforced VARCHAR lengths that SQLite does not: a tag over 64 characters or a case name
over 128 was stored by one back end and refused by the other.
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0004'
down_revision: Union[str, Sequence[str], None] = '0003'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

WIDENED = {
    'snapshots': {'tag': 64, 'version': 32},
    'reproductions': {'case_name': 128, 'jax_version': 32},
    'trigger_runs': {'jax_version': 32},
}


def upgrade() -> None:
    """Upgrade schema."""
    for table, columns in WIDENED.items():
        with op.batch_alter_table(table, schema=None) as batch_op:
            for column, length in columns.items():
                batch_op.alter_column(column, existing_type=sa.String(length=length), type_=sa.Text())


def downgrade() -> None:
    """Downgrade schema."""
    for table, columns in WIDENED.items():
        with op.batch_alter_table(table, schema=None) as batch_op:
            for column, length in columns.items():
                batch_op.alter_column(column, existing_type=sa.Text(), type_=sa.String(length=length))

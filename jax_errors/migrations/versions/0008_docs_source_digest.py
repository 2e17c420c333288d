"""docs source digest: which docs files a snapshot's passages were read from, so an equal set is not read again

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04 18:00:00

A nullable column: a snapshot whose docs were read before has none, and is simply never copied from.
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0008'
down_revision: Union[str, Sequence[str], None] = '0007'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('snapshot_docs', schema=None) as batch_op:
        batch_op.add_column(sa.Column('source_digest', sa.String(length=40), nullable=True))
        batch_op.create_index(batch_op.f('ix_snapshot_docs_source_digest'), ['source_digest'], unique=False)


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('snapshot_docs', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_snapshot_docs_source_digest'))
        batch_op.drop_column('source_digest')

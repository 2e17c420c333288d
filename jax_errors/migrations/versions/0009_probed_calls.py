"""probed calls: per jax version and error, the shortest generated call of a public function seen raising it

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-05 16:00:00
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0009'
down_revision: Union[str, Sequence[str], None] = '0008'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table(
        'probed_calls',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('jax_version', sa.Text(), nullable=False),
        sa.Column('snapshot_id', sa.Integer(), nullable=True),
        sa.Column('error_id', sa.String(length=16), nullable=False),
        sa.Column('path', sa.Text(), nullable=False),
        sa.Column('lineno', sa.Integer(), nullable=False),
        sa.Column('function', sa.Text(), nullable=False),
        sa.Column('call', sa.Text(), nullable=False),
        sa.Column('snippet', sa.Text(), nullable=False),
        sa.Column('exc_class', sa.Text(), nullable=False),
        sa.Column('message', sa.Text(), nullable=False),
        sa.Column('frames', sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(['snapshot_id'], ['snapshots.id'], ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('jax_version', 'error_id'),
    )
    with op.batch_alter_table('probed_calls', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_probed_calls_error_id'), ['error_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_probed_calls_snapshot_id'), ['snapshot_id'], unique=False)


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('probed_calls', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_probed_calls_snapshot_id'))
        batch_op.drop_index(batch_op.f('ix_probed_calls_error_id'))
    op.drop_table('probed_calls')

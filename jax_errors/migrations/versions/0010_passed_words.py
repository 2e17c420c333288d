"""passed words: per snapshot, the calls that pass literal words to parameters of a function that raises

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06 17:10:00
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0010'
down_revision: Union[str, Sequence[str], None] = '0009'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table(
        'passed_words',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('snapshot_id', sa.Integer(), nullable=False),
        sa.Column('path', sa.Text(), nullable=False),
        sa.Column('qualname', sa.Text(), nullable=False),
        sa.Column('caller_path', sa.Text(), nullable=False),
        sa.Column('caller_qualname', sa.Text(), nullable=False),
        sa.Column('words', sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(['snapshot_id'], ['snapshots.id'], name=op.f('fk_passed_words_snapshot_id_snapshots'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_passed_words')),
    )
    with op.batch_alter_table('passed_words', schema=None) as batch_op:
        batch_op.create_index('ix_passed_words_snapshot_id', ['snapshot_id'], unique=False)


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('passed_words', schema=None) as batch_op:
        batch_op.drop_index('ix_passed_words_snapshot_id')
    op.drop_table('passed_words')

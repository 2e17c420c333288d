"""call graph: each blob's call summary, and the public entry points reaching each raising function

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-04 10:00:00

New tables only: a catalogue crawled before has no call graph (its cards show no "Raised by")
until a crawl builds one.
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0005'
down_revision: Union[str, Sequence[str], None] = '0004'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table('blob_calls',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('blob_sha', sa.String(length=40), nullable=False),
    sa.Column('path', sa.Text(), nullable=False),
    sa.Column('version', sa.String(length=16), nullable=False),
    sa.Column('summary', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['blob_sha'], ['blobs.sha'], name=op.f('fk_blob_calls_blob_sha_blobs'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_blob_calls')),
    sa.UniqueConstraint('blob_sha', 'path', name=op.f('uq_blob_calls_blob_sha'))
    )
    op.create_table('call_graphs',
    sa.Column('snapshot_id', sa.Integer(), nullable=False),
    sa.Column('version', sa.String(length=16), nullable=False),
    sa.Column('public_names', sa.Integer(), nullable=False),
    sa.Column('functions', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['snapshot_id'], ['snapshots.id'], name=op.f('fk_call_graphs_snapshot_id_snapshots'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('snapshot_id', name=op.f('pk_call_graphs'))
    )
    op.create_table('raised_by',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('snapshot_id', sa.Integer(), nullable=False),
    sa.Column('path', sa.Text(), nullable=False),
    sa.Column('qualname', sa.Text(), nullable=False),
    sa.Column('entries', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['snapshot_id'], ['snapshots.id'], name=op.f('fk_raised_by_snapshot_id_snapshots'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_raised_by'))
    )
    with op.batch_alter_table('raised_by', schema=None) as batch_op:
        batch_op.create_index('ix_raised_by_snapshot_path', ['snapshot_id', 'path'], unique=False)


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('raised_by', schema=None) as batch_op:
        batch_op.drop_index('ix_raised_by_snapshot_path')
    op.drop_table('raised_by')
    op.drop_table('call_graphs')
    op.drop_table('blob_calls')

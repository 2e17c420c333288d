"""docs: passages of JAX's documentation that speak of errors, and which snapshots hold them

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04 16:00:00

New tables only: a snapshot crawled before has no passages until a crawl reads its docs (the
next crawl of it does, since `snapshot_docs` has no row for it).
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0007'
down_revision: Union[str, Sequence[str], None] = '0006'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table('doc_passages',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('digest', sa.String(length=40), nullable=False),
    sa.Column('path', sa.Text(), nullable=False),
    sa.Column('heading', sa.Text(), nullable=False),
    sa.Column('url', sa.Text(), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_doc_passages')),
    sa.UniqueConstraint('digest', name=op.f('uq_doc_passages_digest'))
    )
    op.create_table('snapshot_docs',
    sa.Column('snapshot_id', sa.Integer(), nullable=False),
    sa.Column('version', sa.String(length=16), nullable=False),
    sa.Column('pages', sa.Integer(), nullable=False),
    sa.Column('passages', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['snapshot_id'], ['snapshots.id'], name=op.f('fk_snapshot_docs_snapshot_id_snapshots'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('snapshot_id', name=op.f('pk_snapshot_docs'))
    )
    op.create_table('snapshot_doc_passages',
    sa.Column('snapshot_id', sa.Integer(), nullable=False),
    sa.Column('passage_id', sa.Integer(), nullable=False),
    sa.Column('line', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['passage_id'], ['doc_passages.id'], name=op.f('fk_snapshot_doc_passages_passage_id_doc_passages'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['snapshot_id'], ['snapshots.id'], name=op.f('fk_snapshot_doc_passages_snapshot_id_snapshots'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('snapshot_id', 'passage_id', name=op.f('pk_snapshot_doc_passages'))
    )
    with op.batch_alter_table('snapshot_doc_passages', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_snapshot_doc_passages_passage_id'), ['passage_id'], unique=False)


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('snapshot_doc_passages', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_snapshot_doc_passages_passage_id'))
    op.drop_table('snapshot_doc_passages')
    op.drop_table('snapshot_docs')
    op.drop_table('doc_passages')

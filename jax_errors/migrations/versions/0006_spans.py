"""spans: files and occurrences stored as spans of snapshots; the first-parent history line

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-04 13:20:00

A row per snapshot and raise site grew with every commit crawled. A span holds one raise site
(or one file's blob) across every snapshot from `first_snapshot` to `last_snapshot` (None: to
the newest), so storage grows with what changes. The rows of `occurrences` and `snapshot_files`
become spans over the snapshots in id order, and back again on downgrade: nothing is lost.

New tables for `crawl --history`: the commits of the first-parent line, each error's spans along
it, what each commit did to an error, and the raises of each blob read for it.
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0006'
down_revision: Union[str, Sequence[str], None] = '0005'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

BATCH = 5000
# Per snapshot table, the columns that make one row's content.
CONVERTED = {
    'occurrences': ('occurrence_spans', ('site_id', 'path', 'error_id')),
    'snapshot_files': ('file_spans', ('path', 'blob_sha')),
}


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table('file_spans',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('path', sa.Text(), nullable=False),
    sa.Column('blob_sha', sa.String(length=40), nullable=False),
    sa.Column('first_snapshot', sa.Integer(), nullable=False),
    sa.Column('last_snapshot', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['blob_sha'], ['blobs.sha'], name=op.f('fk_file_spans_blob_sha_blobs')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_file_spans'))
    )
    with op.batch_alter_table('file_spans', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_file_spans_blob_sha'), ['blob_sha'], unique=False)
        batch_op.create_index('ix_file_spans_last_first', ['last_snapshot', 'first_snapshot'], unique=False)

    op.create_table('occurrence_spans',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('site_id', sa.Integer(), nullable=False),
    sa.Column('path', sa.Text(), nullable=False),
    sa.Column('error_id', sa.String(length=16), nullable=True),
    sa.Column('first_snapshot', sa.Integer(), nullable=False),
    sa.Column('last_snapshot', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['site_id'], ['raise_sites.id'], name=op.f('fk_occurrence_spans_site_id_raise_sites'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_occurrence_spans'))
    )
    with op.batch_alter_table('occurrence_spans', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_occurrence_spans_error_id'), ['error_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_occurrence_spans_site_id'), ['site_id'], unique=False)
        batch_op.create_index('ix_occurrence_spans_last_first', ['last_snapshot', 'first_snapshot'], unique=False)

    _create_history_tables()
    for old, (new, columns) in CONVERTED.items():
        _to_spans(old, new, columns)
    with op.batch_alter_table('occurrences', schema=None) as batch_op:
        batch_op.drop_index('ix_occurrences_snapshot_path')
        batch_op.drop_index(batch_op.f('ix_occurrences_site_id'))
        batch_op.drop_index(batch_op.f('ix_occurrences_error_id'))
    op.drop_table('occurrences')
    with op.batch_alter_table('snapshot_files', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_snapshot_files_blob_sha'))
    op.drop_table('snapshot_files')


def _create_history_tables() -> None:
    op.create_table('history_commits',
    sa.Column('position', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('commit', sa.String(length=40), nullable=False),
    sa.Column('committed_at', sa.DateTime(), nullable=False),
    sa.Column('releases', sa.JSON(), nullable=False),
    sa.PrimaryKeyConstraint('position', name=op.f('pk_history_commits')),
    sa.UniqueConstraint('commit', name=op.f('uq_history_commits_commit'))
    )
    op.create_table('error_spans',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('error_id', sa.String(length=16), nullable=False),
    sa.Column('path', sa.Text(), nullable=False),
    sa.Column('first_position', sa.Integer(), nullable=False),
    sa.Column('last_position', sa.Integer(), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_error_spans'))
    )
    with op.batch_alter_table('error_spans', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_error_spans_error_id'), ['error_id'], unique=False)
        batch_op.create_index('ix_error_spans_last_first', ['last_position', 'first_position'], unique=False)
    op.create_table('history_events',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('error_id', sa.String(length=16), nullable=False),
    sa.Column('previous_id', sa.String(length=16), nullable=True),
    sa.Column('path', sa.Text(), nullable=False),
    sa.Column('previous_path', sa.Text(), nullable=True),
    sa.Column('function', sa.Text(), nullable=False),
    sa.Column('previous_function', sa.Text(), nullable=True),
    sa.Column('template', sa.Text(), nullable=False),
    sa.Column('previous_template', sa.Text(), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_history_events'))
    )
    with op.batch_alter_table('history_events', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_history_events_error_id'), ['error_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_history_events_position'), ['position'], unique=False)
        batch_op.create_index(batch_op.f('ix_history_events_previous_id'), ['previous_id'], unique=False)
    op.create_table('blob_errors',
    sa.Column('sha', sa.String(length=40), nullable=False),
    sa.Column('extractor_version', sa.String(length=16), nullable=False),
    sa.Column('errors', sa.JSON(), nullable=False),
    sa.Column('parse_error', sa.Text(), nullable=True),
    sa.PrimaryKeyConstraint('sha', name=op.f('pk_blob_errors'))
    )


def _to_spans(old: str, new: str, columns: tuple[str, ...]) -> None:
    """Each run of a row's content over consecutive snapshots (in id order) becomes one span."""
    bind = op.get_bind()
    snapshots = [row[0] for row in bind.execute(sa.text('SELECT id FROM snapshots ORDER BY id'))]
    order = {snapshot_id: i for i, snapshot_id in enumerate(snapshots)}
    listed = ', '.join(columns)
    rows = bind.execute(sa.text(f'SELECT {listed}, snapshot_id FROM {old} ORDER BY {listed}, snapshot_id'))
    spans, current, start, end = [], None, None, None

    def close():
        last = None if order[end] == len(snapshots) - 1 else end
        spans.append({**dict(zip(columns, current)), 'first_snapshot': start, 'last_snapshot': last})

    for *content, snapshot_id in rows:
        content = tuple(content)
        if content == current and order[snapshot_id] == order[end] + 1:
            end = snapshot_id
            continue
        if current is not None:
            close()
        current, start, end = content, snapshot_id, snapshot_id
        if len(spans) >= BATCH:
            _insert(new, spans)
            spans = []
    if current is not None:
        close()
    _insert(new, spans)


def _insert(table: str, rows: list[dict]) -> None:
    if rows:
        columns = ', '.join(rows[0])
        values = ', '.join(f':{name}' for name in rows[0])
        op.get_bind().execute(sa.text(f'INSERT INTO {table} ({columns}) VALUES ({values})'), rows)


def downgrade() -> None:
    """Downgrade schema."""
    op.create_table('snapshot_files',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('snapshot_id', sa.Integer(), nullable=False),
    sa.Column('path', sa.Text(), nullable=False),
    sa.Column('blob_sha', sa.String(length=40), nullable=False),
    sa.ForeignKeyConstraint(['blob_sha'], ['blobs.sha'], name=op.f('fk_snapshot_files_blob_sha_blobs')),
    sa.ForeignKeyConstraint(['snapshot_id'], ['snapshots.id'], name=op.f('fk_snapshot_files_snapshot_id_snapshots'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_snapshot_files')),
    sa.UniqueConstraint('snapshot_id', 'path', name=op.f('uq_snapshot_files_snapshot_id'))
    )
    with op.batch_alter_table('snapshot_files', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_snapshot_files_blob_sha'), ['blob_sha'], unique=False)
    op.create_table('occurrences',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('snapshot_id', sa.Integer(), nullable=False),
    sa.Column('site_id', sa.Integer(), nullable=False),
    sa.Column('path', sa.Text(), nullable=False),
    sa.Column('error_id', sa.String(length=16), nullable=True),
    sa.ForeignKeyConstraint(['site_id'], ['raise_sites.id'], name=op.f('fk_occurrences_site_id_raise_sites'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['snapshot_id'], ['snapshots.id'], name=op.f('fk_occurrences_snapshot_id_snapshots'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_occurrences'))
    )
    with op.batch_alter_table('occurrences', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_occurrences_error_id'), ['error_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_occurrences_site_id'), ['site_id'], unique=False)
        batch_op.create_index('ix_occurrences_snapshot_path', ['snapshot_id', 'path'], unique=False)
    for old, (new, columns) in CONVERTED.items():
        listed = ', '.join(columns)
        spans = ', '.join(f'{new}.{name}' for name in columns)
        op.execute(
            f'INSERT INTO {old} (snapshot_id, {listed}) SELECT snapshots.id, {spans} FROM snapshots JOIN {new} '
            f'ON {new}.first_snapshot <= snapshots.id '
            f'AND ({new}.last_snapshot IS NULL OR {new}.last_snapshot >= snapshots.id) '
            f'ORDER BY snapshots.id, {new}.id'
        )
    for table in ('blob_errors', 'history_events', 'error_spans', 'history_commits'):
        with op.batch_alter_table(table, schema=None) as batch_op:
            for index in sa.inspect(op.get_bind()).get_indexes(table):
                batch_op.drop_index(index['name'])
        op.drop_table(table)
    for new in ('occurrence_spans', 'file_spans'):
        with op.batch_alter_table(new, schema=None) as batch_op:
            for index in sa.inspect(op.get_bind()).get_indexes(new):
                batch_op.drop_index(index['name'])
        op.drop_table(new)

"""A long job's loaded data is kept out of the garbage collector's way, and only for the job."""

import gc

from jax_errors.long_lived import long_lived


def test_the_collector_pauses_while_loading_then_skips_what_was_loaded_until_the_job_ends():
    assert gc.isenabled()
    gc.unfreeze()  # whatever an earlier test left frozen
    with long_lived() as loaded:
        assert not gc.isenabled()
        data = [[n] for n in range(1000)]
        loaded()
        assert gc.isenabled()
        assert gc.get_freeze_count() >= len(data)
        assert all(tracked is not data for tracked in gc.get_objects())  # frozen: in no generation it scans
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_a_nested_job_keeps_the_outer_freeze_and_a_failing_one_restores_the_collector():
    gc.unfreeze()
    with long_lived() as outer:
        outer()
        frozen = gc.get_freeze_count()
        try:
            with long_lived() as inner:
                assert not gc.isenabled()
                inner()
                raise KeyError
        except KeyError:
            pass
        assert gc.isenabled() and gc.get_freeze_count() >= frozen  # the inner end did not unfreeze
    assert gc.get_freeze_count() == 0
    try:
        with long_lived():
            raise KeyError  # failed before calling loaded()
    except KeyError:
        pass
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_objects_frozen_before_the_job_stay_frozen_after_it():
    gc.unfreeze()
    gc.freeze()  # as a program does before forking workers
    before = gc.get_freeze_count()
    try:
        with long_lived() as loaded:
            loaded()
        assert gc.get_freeze_count() >= before > 0
    finally:
        gc.unfreeze()

"""The per-socket rate limit, on a fake clock."""

from game.realtime.throttle import TokenBucket


def test_the_token_bucket_refills_at_its_rate():
    now = [100.0]
    bucket = TokenBucket(rate=2.0, burst=3.0, clock=lambda: now[0])
    assert [bucket.allow() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.5  # one token back
    assert [bucket.allow() for _ in range(2)] == [True, False]
    now[0] += 60  # never more than the burst
    assert sum(bucket.allow() for _ in range(10)) == 3

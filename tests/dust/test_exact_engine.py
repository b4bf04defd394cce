"""Dust's exact engine (dust/exact_engine.py): fraction pmfs checked on sums worked out by hand."""

from fractions import Fraction as F

from mathhammer.dust.exact_engine import binomial, convolve, power, scale, thin, to_float


def test_convolve_and_power():
    coin = (F(1, 2), F(1, 2))
    assert convolve(coin, coin) == (F(1, 4), F(1, 2), F(1, 4))
    # three coins: 1, 3, 3, 1 over 8
    assert power(coin, 3) == (F(1, 8), F(3, 8), F(3, 8), F(1, 8))
    assert power(coin, 0) == (F(1),)


def test_binomial_thin_and_scale():
    # 2 dice hitting on 3 faces of 6
    assert binomial(2, F(1, 2)) == (F(1, 4), F(1, 2), F(1, 4))
    # thinning a certain 2 by 1/2 is Binomial(2, 1/2)
    assert thin((F(0), F(0), F(1)), F(1, 2)) == (F(1, 4), F(1, 2), F(1, 4))
    assert thin((F(1, 3), F(2, 3)), F(1)) == (F(1, 3), F(2, 3))
    # doubling 0/1 damage: 0 or 2
    assert scale((F(1, 3), F(2, 3)), 2) == (F(1, 3), F(0), F(2, 3))


def test_to_float():
    assert to_float((F(1, 4), F(3, 4))).tolist() == [0.25, 0.75]


def test_kernel_side_is_the_side_with_an_explicit_order():
    import numpy as np

    from mathhammer.dust.exact_engine import ExchangeSide

    rows, carries = np.zeros((2, 16), dtype=np.int64), np.ones((3, 2), dtype=np.int64)
    counts = np.array([2, 1, 1], dtype=np.int64)
    fixed = ExchangeSide(rows, carries, counts, np.array([2, 0, 1]), True, 4, 4).kernel_side()
    assert fixed.order.tolist() == [2, 0, 1]
    assert (fixed.rows is rows and fixed.carries is carries and fixed.counts is counts
            and (fixed.is_squad, fixed.capacity, fixed.models) == (True, 4, 4))
    # under the random policy the order is unused; the kernel still takes an array
    assert ExchangeSide(rows, carries, counts, None, False, 9, 1).kernel_side().order.tolist() \
        == [0, 1, 2]

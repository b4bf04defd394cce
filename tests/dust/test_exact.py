"""Dust's exact engine (dust/exact.py): fraction pmfs checked on sums worked out by hand."""

from fractions import Fraction as F

from mathhammer.dust.exact import binomial, convolve, power, scale, thin, to_float


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

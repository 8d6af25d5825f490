"""Statistics: every function against scipy (1e-9 relative) on edge cases and a seeded random
sample each, and the seeds' figures."""

import gc
import json
import random
import re
import warnings
from fractions import Fraction
from math import comb, floor, nextafter

import pytest

scipy_stats = pytest.importorskip("scipy.stats", reason="pip install -r requirements-dev.txt (scipy checks the statistics)")

from conftest import ROOT, evalpy

REL = 1e-9


def rng_for(name):
    """Each test's own seeded random sample: the inputs of one test never depend on another's."""
    return random.Random(f"20261130 {name}")


def close(ours, theirs):
    return ours == pytest.approx(float(theirs), rel=REL, abs=1e-300)


FISHER_EDGE_TABLES = [
    [0, 0, 0, 0],                                   # nothing at all
    [0, 0, 3, 4], [3, 4, 0, 0],                     # an empty row
    [0, 3, 0, 4], [3, 0, 4, 0],                     # an empty column
    [0, 1, 0, 0], [1, 0, 0, 0],                     # one row in all
    [1, 0, 0, 1], [5, 0, 0, 5], [0, 7, 3, 0],       # perfect separation, either way round
    [200, 0, 0, 200],                               # a tail far below 1e-100
    [1, 1, 1, 1], [3, 3, 3, 3], [2, 5, 5, 2],       # symmetric margins: tables tie in probability
    [6, 4, 4, 6], [10, 10, 10, 11],
    [0, 1, 4, 3], [0, 2, 2, 3], [14, 19, 11, 6],   # ties that floats miss: held by the tie tolerance
    [110, 0, 92, 18], [40, 0, 34, 6], [40, 0, 35, 5], [20, 0, 15, 5],   # the seeds' figures
    [400, 3, 380, 40], [1, 200, 0, 5], [1000, 2, 990, 12],              # lopsided and large
]


def test_fisher_exact_matches_scipy():
    rng = rng_for("fisher")
    sample = [[rng.randint(0, size) for _ in range(4)] for size in (rng.choice([5, 20, 60, 200]) for _ in range(40))]
    for a, b, c, d in FISHER_EDGE_TABLES + sample:
        assert close(evalpy.fisher_exact(a, b, c, d), scipy_stats.fisher_exact([[a, b], [c, d]]).pvalue), (a, b, c, d)


def test_mcnemar_exact_matches_scipy_binomial_test():
    rng = rng_for("mcnemar")
    for _ in range(300):
        fixed, broken = rng.randint(0, 60), rng.randint(0, 60)
        n = fixed + broken
        theirs = 1.0 if n == 0 else scipy_stats.binomtest(min(fixed, broken), n, 0.5).pvalue
        assert close(evalpy.mcnemar_exact(fixed, broken), theirs), (fixed, broken)


def test_wilson_matches_scipy():
    rng = rng_for("wilson")
    for _ in range(300):
        n = rng.randint(1, 500)
        k = rng.choice([0, n, rng.randint(0, n)])
        ci = scipy_stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
        low, high = evalpy.wilson(k, n)
        assert close(low, ci.low) and close(high, ci.high), (k, n)
    assert evalpy.wilson(0, 0) == (None, None)


def exact_tail(k, n, p):
    """P(X >= k) in exact rational arithmetic: the referee where scipy's floats give out.
    With p = num/den, the sum over whole numbers is divided by den**n once (correctly rounded)."""
    num, den = Fraction(p).as_integer_ratio()
    return sum(comb(n, i) * num ** i * (den - num) ** (n - i) for i in range(k, n + 1)) / den ** n


def test_binomial_tails_match_scipy():
    rng = rng_for("binomial tails")
    for _ in range(300):
        n = rng.randint(1, 300)
        p = rng.choice([rng.random(), rng.random() / 50, 0.16, 0.0625])
        k = rng.randint(0, n)
        assert close(evalpy.binom_cdf(k, n, p), scipy_stats.binom.cdf(k, n, p)), (k, n, p)
        theirs = scipy_stats.binom.sf(k - 1, n, p)
        if theirs < 1e-200:   # scipy loses digits this deep in the tail (seen: 1e-6 off at 2e-284)
            theirs = exact_tail(k, n, p)
        assert close(evalpy.failures_at_least(k, n, p), theirs), (k, n, p)


def test_extreme_tails_against_exact_arithmetic():
    for k, n, p in [(154, 181, 0.008932511417706547), (290, 300, 0.01), (1, 300, 1e-9), (150, 300, 0.5)]:
        assert close(evalpy.failures_at_least(k, n, p), exact_tail(k, n, p))


def test_pass_at_k_and_pass_hat_k_match_the_hypergeometric():
    # drawing k of n trials without replacement, c of them passing
    rng = rng_for("pass@k")
    for _ in range(300):
        n = rng.randint(1, 30)
        c = rng.randint(0, n)
        k = rng.randint(1, n)
        none_pass = scipy_stats.hypergeom.pmf(0, n, c, k)
        all_pass = scipy_stats.hypergeom.pmf(k, n, c, k)
        assert evalpy.pass_at_k(n, c, k) == pytest.approx(1 - none_pass, rel=REL, abs=1e-12), (n, c, k)
        assert evalpy.pass_hat_k(n, c, k) == pytest.approx(all_pass, rel=REL, abs=1e-12), (n, c, k)


def test_rows_for_failures_is_the_fewest_that_reach_the_probability():
    rng = rng_for("rows for failures")
    for _ in range(40):
        rate = rng.choice([0.05, 0.1, 0.16, 0.3, rng.uniform(0.02, 0.5)])
        failures = rng.randint(1, 8)
        prob = rng.choice([0.5, 0.8, 0.9, 0.95])
        rows = evalpy.rows_for_failures(rate, failures, prob)
        assert scipy_stats.binom.sf(failures - 1, rows, rate) >= prob
        assert rows == failures or scipy_stats.binom.sf(failures - 1, rows - 1, rate) < prob


def test_failures_for_fisher_is_the_fewest_that_reach_alpha():
    for rows in list(range(3, 60)) + [110, 200]:
        for alpha in (0.05, 0.01):
            needed = evalpy.failures_for_fisher(rows, alpha)
            p = lambda f: scipy_stats.fisher_exact([[rows - f, f], [rows, 0]]).pvalue
            if needed is None:
                assert p(rows) > alpha
            else:
                assert p(needed) <= alpha and (needed == 1 or p(needed - 1) > alpha)


# The seeds' published figures (002: a regression a 40-row run missed).

def test_the_seed_fisher_figures():
    assert f"{evalpy.fisher_exact(110, 0, 92, 18):.1e}" == "3.6e-06"     # 18/110 failures vs 0/110
    assert round(evalpy.fisher_exact(40, 0, 34, 6), 3) == 0.026           # 34/40 vs 40/40
    assert round(evalpy.fisher_exact(40, 0, 35, 5), 3) == 0.055           # 35/40 vs 40/40
    assert round(evalpy.fisher_exact(20, 0, 15, 5), 3) == 0.047           # 15/20 vs 20/20


def test_the_seed_sizing_figures():
    assert evalpy.rows_for_failures(0.16, 6, 0.8) == 48
    assert round(evalpy.failures_at_least(6, 48, 0.16), 2) == 0.80
    assert round(evalpy.failures_at_least(6, 38, 0.16), 2) == 0.58
    assert evalpy.rows_for_failures(0.0625, 6, 0.8) == 126
    assert evalpy.failures_for_fisher(40, 0.05) == 6
    assert evalpy.failures_for_fisher(20, 0.05) == 5


def test_the_seed_pass_k_example():
    # a task passed 9 times in 10: pass@10 is certain, pass^10 (from 0.9 per trial) about 0.35
    assert evalpy.pass_at_k(10, 9, 10) == 1.0
    assert evalpy.pass_hat_k(10, 9, 10) == 0.0   # unbiased: 9 passes cannot make 10
    assert evalpy.pass_hat_k(10, 9, 1) == pytest.approx(0.9)
    # (round 104) more trials drawn than were made is no figure: pass@5 of 3 failing trials read 1.0 (and pass^5 a
    # ZeroDivisionError); the report asks neither, and neither answers it
    for k in (0, 5):
        with pytest.raises(ValueError):
            evalpy.pass_at_k(3, 0, k)
        with pytest.raises(ValueError):
            evalpy.pass_hat_k(3, 3, k)


@pytest.mark.parametrize("argv, lines", [
    # 80.14% and 78.44% read against --prob 0.8: the digits that keep each on its side
    (["--rate", "0.16", "--failures", "6", "--prob", "0.8"], ["48 rows:", "(P = 80.1% at 48 rows, 78% at 47;"]),
    (["--rate", "0.16", "--rows", "38"], ["58.2%: the chance of seeing at least 6 failures in 38 rows"]),
    (["--rate", "0.16", "--rows", "48"], ["80.1%: the chance"]),
    (["--rate", "0.5", "--rows", "100"], [">99.9999%: the chance"]),   # a chance short of 1: never "100.0%"
    (["--rate", "0.5", "--rows", "12"], ["61.3%: the chance"]),
    (["--rate", "0.001", "--rows", "6"], ["<0.0001%: the chance"]),   # nor "0.0%" for one above 0
    (["--rate", "0.1", "--rows", "3"], ["0.0%: the chance"]),   # none can be seen: exactly 0
    # from the second attack on issue 28: a value given just below 1 printed as 1 (:g), a tiny --prob as 320 digits
    (["--rate", "0.9999999999999999", "--rows", "6"], [">99.9999%: the chance of seeing at least 6 failures in 6 rows "
                                                       "when each fails with probability 0.9999999999999999",
                                                       "(failures ~ Binomial(6, 0.9999999999999999);"]),
    (["--rows", "40", "--unpaired", "--alpha", "0.9999999999999999"], ["1 failure: the fewest that Fisher's exact "
                                                                       "test (two-sided) tells apart from a baseline "
                                                                       "that never failed on 40 rows, at alpha "
                                                                       "0.9999999999999999"]),
    (["--difference", "0.1", "--discordant", "0.1000000000000001"],
     ["66 cases: ", "(when 10.00000000000001% of the cases change verdict", "Exact power", "(discordant cases ~ "
      "Binomial(66, 0.1000000000000001), each going the difference's way with probability (P + D) / 2P = "
      "0.9999999999999996; called at mid-p <= 0.05)."]),
    (["--rate", "0.1", "--prob", "1e-320"], ["6 rows: the fewest that give at least 6 failures with probability >= "
                                             "1e-318% when each row fails with probability 0.1"]),
    (["--rate", "6.25%"], ["126 rows:"]),
    # from the third attack on issue 28: an expected count above 0 printed "0.0", one short of the rows "100.0"
    (["--rate", "0.00001", "--rows", "100"], ["<0.0001%: the chance", "(failures ~ Binomial(100, 1e-05); 0.001 expected)."]),
    (["--rate", "0.99999", "--rows", "100"], [">99.9999%: the chance", "(failures ~ Binomial(100, 0.99999); 99.999 expected)."]),
    (["--rate", "0.16", "--rows", "38"], ["58.2%: the chance", "(failures ~ Binomial(38, 0.16); 6.1 expected)."]),
    (["--rows", "40", "--unpaired"], ["6 failures:", "(34/40 vs 40/40 gives p = 0.026; 35/40 gives p = 0.055).",
                                      "Unpaired:"]),
    (["--rows", "20", "--alpha", "0.05", "--unpaired"],
     ["5 failures:", "(15/20 vs 20/20 gives p = 0.047; 16/20 gives p = 0.11)."]),
    # scipy.stats.fisher_exact([[28, 0], [21, 7]]).pvalue = 0.01020: never "0.01" against alpha 0.01
    (["--rows", "28", "--alpha", "0.01", "--unpaired"], ["8 failures:", "(20/28 vs 28/28 gives p = 0.0044; "
                                                          "21/28 gives p = 0.0102)."]),
    (["--difference", "0.10", "--discordant", "0.14"], ["99 cases: ", "(when 14% of the cases change verdict",
                                                        "Exact power at 99 cases of the mid-p McNemar test compare "
                                                        "uses: 80.1%"]),
    (["--difference", "-0.10", "--discordant", "14%"], ["99 cases: "]),   # the sign does not matter
    (["--difference=-10%", "--discordant", "0.14"], ["99 cases: "]),
    (["--rows", "5"], ["5 of 5 cases (100 points): the fewest changes of verdict, all one way",
                       "(5 one way and none the other give p = 0.031; 4 give p = 0.062).",
                       "The exact McNemar test could never reach 0.05 on 5 cases: all 5 one way give p = 0.062."]),
    (["--rows", "28"], ["5 of 28 cases (17.9 points):", "(5 one way and none the other give p = 0.031;",
                        "Changes both ways cancel out", "  if 11% of the cases change verdict (3): no difference",
                        "  if 21% of the cases change verdict (6): a difference must be at least 21.4 points",
                        "  if 39% of the cases change verdict (11): a difference must be at least 25 points to be told "
                        "from chance (9 one way, 2 the other, p = 0.039)"]),
    (["--rows", "1000", "--alpha", "0.001"], ["10 of 1000 cases (1 point): the fewest"]),   # (round 107) "1 points"
    # from the fifth attack on issue 28 (item 7): "at least 1 failures", "1 cases"
    (["--rate", "0.5", "--rows", "1", "--failures", "1"], ["50.0%: the chance of seeing at least 1 failure in 1 row when"]),
    (["--rate", "0.9", "--failures", "1"], ["1 row: the fewest that give at least 1 failure with probability",
                                            "(P = 90% at 1 row, 0% at 0;"]),
    (["--difference", "1", "--discordant", "1", "--alpha", "0.9"], ["1 case: what a paired", "(when 100%",
                                                                    "Exact power at 1 case of the mid-p"]),
    (["--difference", "0.01", "--discordant", "0.02"], ["1527 cases: what a paired comparison needs for 80% power to "
                                                        "tell a difference of 1 point in pass rate"]),   # not '1 points'
])
def test_power_command(cli, argv, lines):
    code, out, err = cli("power", *argv)
    assert code == 0, err
    assert len(out.splitlines()) >= len(lines)
    for expected, got in zip(lines, out.splitlines()):
        assert got.startswith(expected)


def test_an_even_split_is_no_difference_at_any_alpha(cli):
    """Round 108: at an alpha near 1 an even split was called ("at least 0 points", p = 0.75): compare calls none, its
    interval holding zero."""
    out = cli("power", "--rows", "20", "--alpha", "0.9")[1]
    assert ("  if 10% of the cases change verdict (2): a difference must be at least 10 points to be told from chance "
            "(2 one way, 0 the other, p = 0.25)") in out and "at least 0 points" not in out, out
    assert evalpy.mid_p_cutoff(2, 0.9)[0] == 0 and evalpy.detectable_difference(20, 2, 0.9) == 0.1


@pytest.mark.parametrize("argv, says", [
    ([], "power needs --difference"),
    (["--difference", "0.2", "--discordant", "0.1"], "bounds the difference: give --discordant 0.2 or more"),
    # (139th round) the cure to paste gave 0.00002 back as 2e-05 (given's :g), a number the user never wrote
    (["--difference", "0.00002", "--discordant", "0.00001"], "--difference 0.00002 with --discordant 0.00001: "),
    (["--difference", "0.00002", "--discordant", "0.00001"], "give --discordant 0.00002 or more"),
    (["--difference", "0.1"], "--difference and --discordant go together"),
    (["--discordant", "0.1"], "--difference and --discordant go together"),
    (["--difference", "0.1", "--discordant", "0.2", "--rows", "30"], "without --rate, --rows or --unpaired"),
    (["--unpaired"], "--unpaired goes with --rows alone"),
    (["--rate", "0.1", "--rows", "30", "--unpaired"], "--unpaired goes with --rows alone"),
    (["--rows", "4"], "even all 4 changing verdict the same way give p = 0.062 (mid-p McNemar, the test compare uses); "
                      "it needs 5 cases or more"),
    # (53rd) unpaired, the least rows said too: scipy's fisher_exact of 3 failing against 3 passing is 0.1, of 4 is 0.029
    (["--rows", "2", "--unpaired"], "at 2 rows no number of failures reaches alpha 0.05: Fisher's exact test needs 4 rows or more"),
    (["--rate", "0.1", "--failures", "1001"], "at most 1,000"),
    (["--difference", "1e-200", "--discordant", "0.5"], "would need more than 1,000,000,000,000,000 cases"),
    # (round 108) 10^15 unpaired rows printed 2 failures at p = 0.037 (exactly: 6, 0.031); 10^17 a traceback, exit 1
    (["--rows", "100000000000000000", "--unpaired"], "--rows 100000000000000000: at most 10,000,000,000"),
    (["--rows", "1000000000000000", "--unpaired"], "at most 10,000,000,000"),
])
def test_power_command_errors(cli, argv, says):
    code, out, err = cli("power", *argv)
    assert (code, out) == (2, "") and says in err and "Traceback" not in err


def test_the_least_rows_fishers_test_needs_is_scipys():
    for alpha in (0.05, 0.01, 1e-6):
        least = next(n for n in range(1, 100) if scipy_stats.fisher_exact([[0, n], [n, 0]]).pvalue <= alpha)
        assert evalpy.failures_for_fisher(least, alpha) is not None and evalpy.failures_for_fisher(least - 1, alpha) is None


@pytest.mark.parametrize("argv, says", [
    (["--rate", "1.5"], "between 0 and 1, exclusive"),
    (["--difference", "0"], "not 0"), (["--difference", "1.5"], "from -1 to 1"), (["--difference", "nan"], "not 0"),
    (["--discordant", "0"], "above 0 and at most 1"), (["--discordant", "1.01"], "above 0 and at most 1"),
])
def test_power_options_are_read_with_their_bounds(cli, capsys, argv, says):
    with pytest.raises(SystemExit) as exit:
        cli("power", *argv)
    assert exit.value.code == 2 and says in capsys.readouterr().err


def test_power_help_and_bounds_read_plainly(project, cli, capsys):
    with pytest.raises(SystemExit):
        evalpy.main(["power", "--help"])
    shown = capsys.readouterr().out
    for example in ("power --difference 0.10 --discordant 0.14", "power --rows 28", "80% chance",
                    "power --rate 0.16 --rows 38", "power --rows 40 --unpaired", "Connor"):
        assert example in shown
    with pytest.raises(SystemExit):
        evalpy.main(["power", "--rate", "1"])
    assert "between 0 and 1, exclusive" in capsys.readouterr().err


# power for the paired question compare asks (issue 26): Connor's (1987) sample size for McNemar's
# test, and the exact power of the mid-p McNemar test, each against an independent computation.

def test_connor_cases_by_hand_from_scipys_normal_quantiles():
    norm = scipy_stats.norm
    rng = rng_for("connor")
    inputs = [(0.10, 0.14, 0.05, 0.8), (-0.10, 0.14, 0.05, 0.8), (1.0, 1.0, 0.05, 0.8), (0.05, 0.5, 0.01, 0.9),
              (0.3, 0.3, 0.1, 0.5), (0.02, 0.05, 0.05, 0.95)]
    for _ in range(200):
        discordant = rng.uniform(0.01, 1)
        inputs.append((rng.uniform(0.005, 1) * discordant, discordant, rng.choice([0.05, 0.01, rng.random()]),
                       rng.choice([0.8, 0.9, rng.random()])))
    for d, p, alpha, prob in inputs:
        root = norm.ppf(1 - alpha / 2) * p ** 0.5 + norm.ppf(prob) * (p - d * d) ** 0.5   # sqrt(n) |d|
        n = (root / abs(d)) ** 2
        assert evalpy.connor_cases(d, p, alpha, prob) == (-int(-n // 1) if root > 0 else 1), (d, p, alpha, prob)
    assert evalpy.connor_cases(0.10, 0.14, 0.05, 0.8) == 108   # the issue's figure: (1.960 * 0.374 + 0.842 * 0.361)^2 / 0.01 = 107.5


def test_a_power_aimed_lower_never_needs_more_cases(cli):
    """From the attack pass after issue 26: Connor's bracket, sqrt(n)·D, falls below zero when the
    power aimed at is low enough, and squared it grew again: --prob 1e-9 answered 205 cases where
    --prob 0.8 needs 108 (and 0.01 gave 2). No case is what the approximation asks there; the
    exact power then finds the size (5 cases, by scipy's enumeration)."""
    sizes = [evalpy.connor_cases(0.1, 0.14, 0.05, prob) for prob in (0.8, 0.5, 0.3, 0.1, 0.01, 1e-3, 1e-9)]
    assert sizes == sorted(sizes, reverse=True) and sizes[-1] == 1
    code, out, _ = cli("power", "--difference", "0.1", "--discordant", "0.14", "--prob", "1e-9")
    assert code == 0 and out.startswith("5 cases: ") and "search starts, gives 1)." in out
    assert scipy_mcnemar_power(4, 0.1, 0.14, 0.05) < 1e-9 <= scipy_mcnemar_power(5, 0.1, 0.14, 0.05)


def scipy_mid_p(small, m):
    """The two-sided mid-p McNemar p of `small` cases one way out of m, from scipy's binomial: the
    tables strictly more extreme on both sides, and half of those exactly as extreme."""
    binom = scipy_stats.binom
    if m == 0:
        return 1.0
    small = min(small, m - small)
    if 2 * small == m:
        return 1 - binom.pmf(small, m, 0.5) / 2
    return 2 * binom.cdf(small - 1, m, 0.5) + binom.pmf(small, m, 0.5)


def scipy_mcnemar_power(n, d, p, alpha, at_least=0.0):
    """Power by brute force: every discordant count m (those weighing at_least or less skipped),
    every split of it, its mid-p from scipy (as scipy_mid_p, for all splits at once), summed
    where it is <= alpha and the split is no even one (no difference: compare calls none, at any alpha)."""
    import numpy
    binom = scipy_stats.binom
    toward = (p + abs(d)) / (2 * p)
    total = 0.0
    for m in range(1, n + 1):   # m = 0: nothing changed, p = 1
        weight = binom.pmf(m, n, p)
        if weight <= at_least:
            continue
        splits = numpy.arange(m + 1)
        small = numpy.minimum(splits, m - splits)
        mid_p = numpy.where(2 * small == m, 1 - binom.pmf(small, m, 0.5) / 2,
                            2 * binom.cdf(small - 1, m, 0.5) + binom.pmf(small, m, 0.5))
        total += weight * binom.pmf(splits, m, toward)[(mid_p <= alpha) & (2 * small != m)].sum()
    return total


def test_mcnemar_power_equals_a_brute_force_enumeration_with_scipy():
    rng = rng_for("mcnemar power")
    inputs = [(n, d, p, alpha) for n in (1, 2, 5, 12, 40) for d, p in ((0.1, 0.14), (1, 1), (-0.2, 0.3), (0.01, 0.02),
                                                                        (0.05, 0.9)) for alpha in (0.05, 0.01, 0.6)]
    for _ in range(25):
        p = rng.uniform(0.01, 1)
        inputs.append((rng.randint(1, 120), rng.uniform(0.001, 1) * p * rng.choice([-1, 1]), p,
                       rng.choice([0.05, 0.01, rng.random()])))
    inputs += [(150, 0.1, 0.9, 0.05), (200, 0.3, 0.6, 0.01)]   # the enumeration starts at m far above 0
    # (round 108) at alpha 0.75 or above an even split's mid-p is under alpha: counted, 11 cases "81%" for 73.8%
    inputs += [(11, 0.1, 0.14, 0.9), (15, 0.1, 0.14, 0.9), (40, 0.2, 0.5, 0.8), (7, 0.3, 0.6, 0.99)]
    assert evalpy.binomial_mass(150, 0.9)[0] > 0 and evalpy.binomial_mass(200, 0.6)[0] > 0
    for n, d, p, alpha in inputs:
        ours, theirs = evalpy.mcnemar_power(n, d, p, alpha), scipy_mcnemar_power(n, d, p, alpha)
        assert ours == pytest.approx(theirs, rel=1e-9, abs=1e-13), (n, d, p, alpha)


def test_mcnemar_power_at_thousands_of_cases_against_scipy():
    """Where the cutoff and the tails are carried from one discordant count to the next over
    hundreds of counts (m from about 450 to 750)."""
    for n, d, p, alpha in ((2000, 0.03, 0.3, 0.05), (3000, 0.01, 0.05, 0.01)):
        theirs = scipy_mcnemar_power(n, d, p, alpha, at_least=1e-22)
        assert evalpy.mcnemar_power(n, d, p, alpha) == pytest.approx(theirs, rel=1e-8), (n, d, p)


def test_the_paired_answer_in_json_is_in_fractions(cli):
    import json
    code, out, _ = cli("power", "--difference", "0.10", "--discordant", "0.14", "--json")
    answer = json.loads(out)
    assert code == 0 and answer["cases"] == 99 and answer["difference"] == 0.1 and answer["discordant"] == 0.14
    assert answer["connor_cases"] == 108 and answer["exact"] is True
    assert answer["power"] == pytest.approx(scipy_mcnemar_power(99, 0.1, 0.14, 0.05), rel=1e-9)
    assert answer["power"] > 0.8 and answer["test"] == "mid-p McNemar"


def test_a_shortfall_of_connors_approximation_is_the_size_that_reaches_the_aim(cli):
    code, out, _ = cli("power", "--difference", "1", "--discordant", "1")
    # 4 cases, all changed the same way: mid-p 1/16 > 0.05, so no power; 5 give 1/32
    assert code == 0 and out.startswith("5 cases: ") and "compare uses: 100%" in out and "gives 4)." in out
    assert scipy_mcnemar_power(4, 1, 1, 0.05) == 0 and scipy_mcnemar_power(5, 1, 1, 0.05) == 1
    # --json carries the size the text names, and Connor's beside it
    import json
    answer = json.loads(cli("power", "--difference", "1", "--discordant", "1", "--json")[1])
    assert (answer["cases"], answer["power"], answer["connor_cases"]) == (5, 1, 4)


def scipy_fewest_one_way(alpha, most, exact=False):
    """The fewest cases, all changed one way, whose p is <= alpha: scipy's binomial test, or the mid-p."""
    for k in range(1, most + 1):
        p = scipy_stats.binomtest(0, k, 0.5).pvalue if exact else scipy_mid_p(0, k)
        if p <= alpha:
            return k
    return None


def test_what_n_cases_can_tell_against_scipy(cli):
    import json
    for rows in (5, 6, 9, 28, 57, 100, 1000):
        for alpha in (0.05, 0.01):
            code, out, err = cli("power", "--rows", rows, "--alpha", alpha, "--json")
            changed = scipy_fewest_one_way(alpha, rows)
            if changed is None:   # 5 cases at alpha 0.01: even all five one way give 1/32
                assert code == 2 and "no change can be told from chance" in err
                continue
            answer = json.loads(out)
            assert code == 0 and answer["changed"] == changed and answer["difference"] == changed / rows
            assert answer["p"] == pytest.approx(scipy_mid_p(0, changed), rel=1e-12)
            text = cli("power", "--rows", rows, "--alpha", alpha)[1]
            assert ("The exact McNemar test could never reach" in text) == (scipy_fewest_one_way(alpha, rows, True) is None)
            for shown in answer["by_discordant"]:
                d = shown["discordant"]
                assert d == max(1, round(shown["share"] * rows + 1e-9))
                called = [x for x in range(d // 2 + 1) if scipy_mid_p(x, d) <= alpha]   # fewer the other way
                rarer = max(called) if called else None
                assert shown["difference"] == (None if rarer is None else (d - 2 * rarer) / rows)
                assert shown["split"] == [d - (rarer or 0), rarer or 0]
                assert shown["p"] == pytest.approx(scipy_mid_p(rarer or 0, d), rel=1e-9)
                assert shown["difference"] == evalpy.detectable_difference(rows, d, alpha)


def test_binom_at_most_matches_scipy_on_either_side_of_the_mean():
    rng = rng_for("binom at most")
    inputs = [(0, 10, 0.5), (5, 10, 0.5), (9, 10, 0.5), (10, 10, 0.3), (-1, 10, 0.3), (0, 1, 1e-9), (3, 7, 0.0),
              (3, 7, 1.0), (499_000, 1_000_000, 0.5), (501_000, 1_000_000, 0.5), (2_000, 1_000_000, 0.001)]
    for _ in range(300):
        n = rng.choice([rng.randint(1, 60), rng.randint(60, 10_000), rng.randint(10_000, 3_000_000)])
        p = rng.choice([0.5, rng.random(), rng.random() / 100, 1 - rng.random() / 100])
        mean, sd = n * p, (n * p * (1 - p)) ** 0.5
        k = max(0, min(n, int(mean + rng.uniform(-6, 6) * sd)))
        inputs.append((k, n, p))
    for k, n, p in inputs:
        assert evalpy.binom_at_most(k, n, p) == pytest.approx(scipy_stats.binom.cdf(k, n, p), rel=1e-9, abs=1e-15), (k, n, p)


# power --rate: bisection over the rows, tails in O(failures) terms (--rate 0.0001 took minutes, 1e-6 never ended)

def test_failures_at_least_matches_scipy_at_tiny_rates_and_huge_row_counts():
    rng = rng_for("failures at least")
    inputs = [(1, 1, 0.5), (3, 2, 0.5), (6, 48, 0.16), (3, 4_279_029, 1e-6), (6, 10 ** 10, 1e-9), (6, 10, 1e-9),
              (1000, 2000, 0.3), (900, 1000, 0.999), (20, 10 ** 12, 1e-12), (2, 10 ** 15, 1e-15)]
    for _ in range(300):
        failures = rng.randint(1, 60)
        rate = 10 ** rng.uniform(-9, -0.05)
        rows = max(1, int(failures / rate * rng.uniform(0.05, 5)))
        inputs.append((failures, rows, rate))
    for failures, rows, rate in inputs:
        ours = evalpy.failures_at_least(failures, rows, rate)
        if rows <= 300:
            assert close(ours, exact_tail(failures, rows, rate)), (failures, rows, rate)
        # scipy's own digits thin out at a billion rows: 1.2e-8 off (21 failures, 1.2e9 rows, rate 1.96e-8)
        theirs = scipy_stats.binom.sf(failures - 1, rows, rate)
        assert ours == pytest.approx(theirs, rel=1e-7, abs=1e-300), (failures, rows, rate)


@pytest.mark.parametrize("rate, failures, prob", [(1e-6, 3, 0.8), (0.0001, 6, 0.8), (1e-9, 6, 0.95), (0.5, 1, 0.5),
                                                  (1e-4, 1000, 0.8), (0.3, 1, 0.999999)])
def test_rows_for_failures_at_tiny_rates_is_the_fewest_by_scipy(rate, failures, prob):
    rows = evalpy.rows_for_failures(rate, failures, prob)
    assert scipy_stats.binom.sf(failures - 1, rows, rate) >= prob
    assert rows == failures or scipy_stats.binom.sf(failures - 1, rows - 1, rate) < prob


def written(x):
    """A rate or chance as power reads it: the decimal a float writes (0.1 a tenth, not its binary value)."""
    return Fraction(repr(x)) if isinstance(x, float) else Fraction(x)


def exact_chance(k, n, p):
    """P(X >= k) as a Fraction, the rate read as written: exact_tail before its rounding to a float."""
    num, den = written(p).as_integer_ratio()
    return Fraction(sum(comb(n, i) * num ** i * (den - num) ** (n - i) for i in range(k, n + 1)), den ** n)


def fewest_rows(rate, failures, prob):
    """The fewest rows whose chance of at least `failures` failures reaches prob, every figure an exact fraction."""
    rows = failures
    while exact_chance(failures, rows, rate) < prob:
        rows += 1
    return rows


def test_power_rate_reaches_a_chance_it_ties_exactly(cli):
    """131st round: 3 rows at rate 0.5 give 2 failures with 4/8 exactly, yet `--failures 2 --prob 0.5` answered 4 rows,
    "49.99999999999999% at 3" (the chance summed in logs, a last bit short), where `--rows 3` printed 50.0%; 66 of 441
    exact ties were a row too many. Where the float sum is near the line the chance is summed again exactly. On a grid
    of ties and near-ties the answer is the fewest rows by exact fractions, which scipy's binom.sf agrees with."""
    code, out, _ = cli("power", "--rate", "0.5", "--failures", "2", "--prob", "0.5")
    assert code == 0 and out.startswith("3 rows: the fewest") and "(P = 50% at 3 rows, 25% at 2;" in out, out
    assert cli("power", "--rate", "0.5", "--failures", "2", "--rows", "3")[1].startswith("50.0%: the chance"), out
    out = cli("power", "--rate", "0.5", "--failures", "5", "--prob", "0.03125")[1]
    assert out.startswith("5 rows: the fewest") and "(P = 3.125% at 5 rows, 0% at 4;" in out, out
    ties = 0
    for rate in (0.5, 0.25, 0.75, 0.1, 0.3, 0.0625):
        for failures in range(1, 8):
            for n in range(failures, 30):
                chance = exact_chance(failures, n, rate)
                for prob in {float(chance), nextafter(float(chance), 1), nextafter(float(chance), 0)} - {0.0, 1.0}:
                    ties += written(prob) == chance
                    rows = evalpy.rows_for_failures(rate, failures, prob)
                    assert rows == fewest_rows(rate, failures, written(prob)), (rate, failures, prob, rows)
                    for m in (rows - 1, rows):
                        theirs = scipy_stats.binom.sf(failures - 1, m, rate)
                        assert theirs == pytest.approx(float(exact_chance(failures, m, rate)), rel=1e-12, abs=1e-300)
    assert ties > 300


def test_power_rate_one_failure_at_tiny_rates_keeps_the_digits_of_its_chance(cli):
    """131st round: the chance of at least one failure was 1 - P(none), which keeps only the digits 1 has where
    rows x rate is tiny (1 row at 1e-12 read 0.99998e-12), far past TAIL_NEAR, so the exact sum never ran:
    `--rate 1e-12 --failures 1 --prob 4.99999999999e-12` answered 5 rows (6 by exact fractions),
    `--rate 1e-9 --prob 1e-9` 2 rows, "0.000000099999997% at 1" (1 row gives 1e-9 exactly), `--rate 1e-20 --prob
    1e-10` 9999995277 rows (10000000001: 1e10 rows give 1e-10 - 5e-21); 20 of 77 small rates were wrong. On a grid
    of tiny rates, at each chance and its neighbours, the answer is the fewest rows by exact fractions."""
    # (since the 132nd round a rate is read as written: 5 rows at a decimal 1e-12 give 4.99999999999e-12 and 1e-35 more)
    for rate, prob, rows in ((1e-12, 4.999999999990001e-12, 6), (1e-9, 1e-9, 1), (1e-20, 1e-10, 10000000001)):
        doc = json.loads(cli("power", "--rate", rate, "--failures", "1", "--prob", prob, "--json")[1])
        assert doc["rows"] == rows, (rate, prob, doc)
    assert exact_chance(1, 6, 1e-12) >= written(4.999999999990001e-12) > exact_chance(1, 5, 1e-12)
    assert exact_chance(1, 1, 1e-9) == written(1e-9)
    assert scipy_stats.binom.sf(0, 10000000001, 1e-20) >= 1e-10 > scipy_stats.binom.sf(0, 10000000000, 1e-20)
    code, out, _ = cli("power", "--rate", "1e-9", "--failures", "1", "--prob", "1e-9")
    assert code == 0 and out.startswith("1 row: the fewest") and "(P = 0.000000100% at 1 row" in out, out
    for rate in (1e-4, 1e-6, 1e-9, 1e-12, 3e-7, 7e-9):
        for n in (1, 2, 3, 5, 10, 50, 100):
            chance = exact_chance(1, n, rate)
            for prob in {float(chance), nextafter(float(chance), 1), nextafter(float(chance), 0)}:
                rows = evalpy.rows_for_failures(rate, 1, prob)
                assert exact_chance(1, rows, rate) >= written(prob) > exact_chance(1, rows - 1, rate), (rate, prob, rows)
            assert evalpy.failures_at_least(1, n, rate) == pytest.approx(float(chance), rel=1e-15), (rate, n)


def test_power_rate_reads_the_rate_and_the_chance_as_the_decimals_written(cli):
    """132nd round: `--rate 0.1 --failures 1 --prob 0.271` answered 4 rows, while 3 rows give 1 - 0.9^3 = 0.271
    exactly and `--rate 0.1 --rows 3` says so: the exact sum took the rate as its binary float (a hair above 0.1) and
    compared with the float prob, so a tie written in decimals was a row too many (6 of 8 such ties). The rate and the
    chance are read as the decimals typed; on a grid of decimal rates, at each chance a float writes exactly and at
    its neighbours, the answer is the fewest rows by exact decimal fractions."""
    for rate, failures, prob, rows in (("0.1", 1, "0.271", 3), ("0.3", 2, "0.09", 2), ("0.3", 2, "0.216", 3),
                                       ("0.7", 1, "0.91", 2), ("0.9", 2, "0.81", 2), ("0.01", 1, "0.0199", 2),
                                       ("10%", 1, "27.1%", 3), ("0.1", 1, "0.19", 2), ("0.2", 1, "0.36", 2)):
        doc = json.loads(cli("power", "--rate", rate, "--failures", str(failures), "--prob", prob, "--json")[1])
        assert doc["rows"] == rows, (rate, failures, prob, doc)
    assert json.loads(cli("power", "--rate", "0.1", "--rows", "3", "--failures", "1", "--json")[1])["probability"] == 0.271
    ties = 0
    for rate in map(Fraction, ("0.1", "0.3", "0.7", "0.9", "0.01", "0.2", "0.05", "0.15", "0.001")):
        for failures in range(1, 5):
            for n in range(failures, 25):
                chance = exact_chance(failures, n, rate)
                for prob in {float(chance), nextafter(float(chance), 1), nextafter(float(chance), 0)} - {0.0, 1.0}:
                    ties += written(prob) == chance
                    rows = evalpy.rows_for_failures(float(rate), failures, prob)
                    assert rows == fewest_rows(rate, failures, written(prob)), (rate, failures, prob, rows)
    assert ties > 100


def test_power_rate_prints_each_chance_beside_its_line_from_its_exact_value(cli):
    """132nd round: the chances beside the line printed float leftovers: `--rate 0.2 --failures 1 --prob 0.36` "P =
    36.000000000000004% at 2 rows", (0.3, 2, 0.09) "8.999999999999998% at 2", (0.01, 1, 0.0199) "1.9899999999999998%";
    and a chance a hair from the line took its digits from a float beside it (1 - 0.3^27 against 0.9999999999999923
    printed 99.99999999999925%; it is 99.9999999999992374...%). Each is the exact chance with the fewest digits that
    keep it on its side of the line as written (a tie prints as the line), rounded from the exact value, never 100%."""
    import re
    for rate, failures, prob, says in (("0.2", 1, "0.36", "(P = 36% at 2 rows, 20% at 1;"),
                                       ("0.3", 2, "0.09", "(P = 9% at 2 rows, 0% at 1;"),
                                       ("0.01", 1, "0.0199", "(P = 1.99% at 2 rows, 1% at 1;"),
                                       ("0.7", 1, "0.9999999999999923", "(P = 99.99999999999924% at 27 rows,"),
                                       ("0.9", 1, "0.9999999999999999", "(P = 99.99999999999999% at 16 rows,")):
        out = cli("power", "--rate", rate, "--failures", str(failures), "--prob", prob)[1]
        assert says in out, out
    for rate in map(Fraction, ("0.7", "0.9", "0.3", "0.1", "0.15")):
        for failures in (1, 2):
            for n in range(failures + 1, 29):
                chance = exact_chance(failures, n, rate)
                for prob in {float(chance), nextafter(float(chance), 1), nextafter(float(chance), 0)} - {1.0}:
                    out = cli("power", "--rate", str(float(rate)), "--failures", str(failures), "--prob", repr(prob))[1]
                    (at, rows), before = re.search(r"P = ([0-9.]+)% at (\d+) rows?, ([0-9.]+)%", out).groups()[:2], \
                        re.search(r", ([0-9.]+)% at \d+;", out).group(1)
                    for shown, m in ((at, int(rows)), (before, int(rows) - 1)):
                        exactly, line = exact_chance(failures, m, rate), written(prob)
                        digits = len(shown.partition(".")[2])
                        half_up = Fraction(floor(exactly * 100 * 10 ** digits + Fraction(1, 2)), 10 ** digits)
                        assert Fraction(shown) == half_up or exactly == line, (out, m)
                        assert (Fraction(shown) / 100 > line) == (exactly > line) and Fraction(shown) < 100, (out, m)


def test_power_rate_decides_a_near_tie_past_the_exact_sums_reach(cli):
    """132nd round: `--rate 0.001 --failures 1 --prob 0.9999999999999` answered 29918 rows, "P = 99.99999999999% at
    29918" and --json probability equal to prob, where 1 - 0.999^29918 is 6.4e-17 below the aim: the float sum was
    within TAIL_NEAR of it but 29918 rows of a rate of 10 bits are past EXACT_TAIL_BITS, so no exact sum ran and two
    equal floats were compared. --failures 2 answered 33457 (33458), and 6, 50, 300, 1000 failures 1 to 4 rows short
    (mpmath at 80 digits: 44188, 120751, 445398, 1250225). Such a tie is summed again in decimals; P is printed from
    that sum, below the aim where it is below."""
    import re
    for failures, rows in ((1, 29919), (2, 33458), (6, 44188), (50, 120751), (300, 445398), (1000, 1250225)):
        doc = json.loads(cli("power", "--rate", "0.001", "--failures", str(failures), "--prob", "0.9999999999999",
                             "--json")[1])
        assert doc["rows"] == rows and doc["probability"] >= doc["prob"] and "approximate" not in doc, (failures, doc)
    rate, prob = Fraction("0.001"), Fraction("0.9999999999999")
    chance = lambda k, n: 1 - sum(comb(n, i) * rate ** i * (1 - rate) ** (n - i) for i in range(k))   # the few below
    for failures, rows in ((1, 29919), (2, 33458)):   # exact fractions where they are cheap
        assert chance(failures, rows) >= prob > chance(failures, rows - 1)
        out = cli("power", "--rate", "0.001", "--failures", str(failures), "--prob", "0.9999999999999")[1]
        at, before = re.search(r"P = ([0-9.]+)% at \d+ rows, ([0-9.]+)% at", out).groups()
        assert Fraction(at) / 100 >= prob > Fraction(before) / 100, out
    # 10^10 rows at 1e-300 fall short of 1e-290 by a share of 5e-291 of it: past 60 digits, said so, not decided
    code, out, _ = cli("power", "--rate", "1e-300", "--failures", "1", "--prob", "1e-290")
    assert code == 0 and out.startswith("about 10000000000 rows: the fewest") and "P = " not in out, out
    assert "(the chance at 10000000000 rows is nearer the aim than 60 digits tell apart: the count may be off by a " \
           "row;" in out, out


def test_power_rate_past_ten_billion_rows_says_its_count_is_about_that_many(cli):
    """116th round: at 10^14 rows the count printed was 6 rows short of the fewest (the exact tail, summed by mpmath,
    is 79.99999999999559% there), and its P printed as 80.0000000000003%: floats no longer tell one row from the next."""
    code, out, _ = cli("power", "--rate", "1e-11", "--failures", "1000")
    # (since the 132nd round near ties are summed in decimals: 102651253592932 is the fewest, mpmath's too)
    assert code == 0 and out.startswith("about 102651253592932 rows: the fewest that give at least 1000 failures"), out
    assert "P = " not in out and "the count may be off by a few rows" in out, out
    doc = json.loads(cli("power", "--rate", "1e-11", "--failures", "1000", "--json")[1])
    assert doc["approximate"] is True and "probability" not in doc, doc
    assert "approximate" not in json.loads(cli("power", "--rate", "1e-6", "--failures", "3", "--json")[1])


def test_power_rate_answers_at_a_rate_of_one_in_a_million(cli):
    code, out, _ = cli("power", "--rate", "1e-6", "--failures", "3")
    rows = int(out.split()[0])
    assert code == 0 and scipy_stats.binom.sf(2, rows, 1e-6) >= 0.8 > scipy_stats.binom.sf(2, rows - 1, 1e-6)
    # the two chances straddle 80% by millionths: each printed with the digits that keep it on its side
    assert "(P = 80.000004% at 4279029 rows, 79.999991% at 4279028;" in out


def test_power_expected_failures_never_read_none_nor_every_row(cli):
    """A rate of 1e-5 on 100 rows expects 0.001 failures, not "0.0"; 0.99999 expects 99.999, not "100.0"."""
    for rate, says, never in (("0.00001", "; 0.001 expected)", "0.0 expected"), ("0.99999", "; 99.999 expected)", "100.0 expected"),
                              ("0.3", "; 30.0 expected)", None)):
        code, out, _ = cli("power", "--rate", rate, "--rows", "100")
        assert code == 0 and says in out and (never is None or never not in out), out
    assert "a difference of 99.99 points" in cli("power", "--difference", "0.9999", "--discordant", "0.99995")[1]


def test_percentile_matches_scipy_on_many_inputs():
    """The Speed section's median and 95th percentile: linear interpolation, as scipy's default."""
    rng = random.Random(15)
    for _ in range(500):
        values = sorted(rng.choice([rng.uniform(0, 5000), rng.randint(0, 3)]) for _ in range(rng.randint(1, 60)))
        for q in (0, 5, 50, 95, 99, 100, rng.uniform(0, 100)):
            assert evalpy.percentile(values, q) == pytest.approx(scipy_stats.scoreatpercentile(values, q), rel=1e-12, abs=1e-9)
    assert evalpy.percentile([], 50) is None


def test_spearman_equals_scipys_on_many_inputs_ties_included():
    from scipy.stats import spearmanr
    rng = random.Random(18)
    for _ in range(400):
        n = rng.randrange(2, 60)
        xs = [rng.randrange(0, rng.choice((3, 20, 1000))) for _ in range(n)]
        ys = [rng.choice((0, 1)) if rng.random() < 0.7 else rng.random() for _ in range(n)]
        with warnings.catch_warnings():   # scipy warns on a constant side, and says nan
            warnings.simplefilter("ignore")
            expected = spearmanr(xs, ys).statistic
        got = evalpy.spearman(xs, ys)
        if len(set(xs)) < 2 or len(set(ys)) < 2:
            assert got is None           # scipy says nan: a constant side has no rank order
        else:
            assert got == pytest.approx(expected, abs=1e-12), (xs, ys)
    assert evalpy.average_ranks([3, 1, 3, 2]) == [3.5, 1, 3.5, 2]


HOLM_EDGE_FAMILIES = [
    [0.03],                                  # one p-value: unchanged
    [1.0], [0.0], [1.0, 1.0, 1.0], [0.0, 0.0],   # p = 1 and p = 0, alone and together
    [0.0, 0.2, 1.0, 0.04],                   # p = 0 and p = 1 among others
    [0.05, 0.05, 0.05, 0.05],                # all equal
    [0.01, 0.04, 0.01, 0.04, 0.02],          # ties in between
    [0.3, 0.3], [0.6, 0.7],                  # adjusted past 1: capped
    [0.02, 0.03], [0.02, 0.024],             # below alpha = 0.05 alone, above it once adjusted
    [0.01, 0.0125, 0.04, 0.02],              # some cross alpha, some do not
    [0.01, 0.04, 0.03, 0.005],               # monotonicity: 0.04 x 1 is raised to 0.03 x 2 before it
    [0.001, 0.0105, 0.011, 0.0111, 0.2],     # a later, smaller product held up by an earlier one
    [1e-12, 1e-9, 0.049, 0.05, 0.051],       # tiny and alpha-sized values
    [0.9, 0.001, 0.5, 0.0001, 0.02, 0.02, 0.3, 0.04],   # unsorted with ties
    [i / 20 for i in range(20)],             # twenty, evenly spread, 0 included
]


def test_holm_matches_statsmodels():
    multipletests = pytest.importorskip("statsmodels.stats.multitest",
                                        reason="pip install -r requirements-dev.txt (statsmodels checks Holm)").multipletests
    rng = rng_for("holm")
    sample = [[rng.choice([rng.random(), rng.random() / 50, 1.0, 0.05]) for _ in range(rng.choice([1, 2, 3, 5, 8, 20]))]
              for _ in range(40)]
    # multipletests runs a full garbage collection on every call, tens of ms with scipy and pandas
    # loaded; objects already alive are frozen out of it meanwhile (it changes no figure)
    gc.freeze()
    try:
        for p in HOLM_EDGE_FAMILIES + sample:
            theirs = multipletests(p, method="holm")[1]
            assert all(close(a, b) for a, b in zip(evalpy.holm(p), theirs, strict=True)), p
    finally:
        gc.unfreeze()


def test_holm_by_hand():
    # sorted: 0.005 x 4 = 0.02; 0.01 x 3 = 0.03; 0.03 x 2 = 0.06; 0.04 x 1 = 0.04, raised to the 0.06 before it
    assert evalpy.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert evalpy.holm([0.5, 0.6]) == [1.0, 1.0] and evalpy.holm([]) == [] and evalpy.holm([0.2]) == [0.2]


def test_a_figure_read_against_a_line_never_prints_on_the_wrong_side_of_it():
    # 44/49 = 89.8% against a minimum of 90%; 42 fixed / 25 broken: p = 0.0497; 22 / 10: p = 0.0501
    assert evalpy.percent(44 / 49, 0.9) == "89.8%"
    assert evalpy.percent(0.9, 0.9) == "90%" and evalpy.percent(0.95, 0.9) == "95%"
    assert evalpy.percent(0.90004, 0.9) == "90.004%"
    p_below, p_above = evalpy.mcnemar_exact(42, 25), evalpy.mcnemar_exact(22, 10)
    assert p_below < 0.05 < p_above   # scipy.stats.binomtest(25, 67).pvalue = 0.0498; (10, 32): 0.0501
    assert abs(p_below - scipy_stats.binomtest(25, 67).pvalue) < 1e-12 and abs(p_above - scipy_stats.binomtest(10, 32).pvalue) < 1e-12
    assert evalpy.p_value(p_below, 0.05) == "0.0498" and evalpy.p_value(p_above, 0.05) == "0.0501"
    assert evalpy.p_value(0.0102, 0.01) == "0.0102" and evalpy.p_value(0.031, 0.05) == "0.031"
    assert evalpy.p_value(0.05, 0.05) == "0.05"
    # exactly on the line: printed as the line, not rounded off it (p = 1/64 at alpha 0.015625 was
    # 'p = 0.016 ... beyond chance'); a minimum and a figure on it print alike
    assert evalpy.p_value(1 / 64, 0.015625) == "0.015625" and evalpy.percent(0.875, 0.875) == "87.5%"
    assert evalpy.percent_line(0.875) == "87.5%" and evalpy.percent_line(0.9000004) == "90.00004%"   # as given
    # below 0.001 too: power --rows 152 --alpha 0.0005 printed a split's p of 0.000497 as 5.0e-04
    assert evalpy.p_value(0.000504, 0.0005) == "5.04e-04" and evalpy.p_value(1.04e-9, 1e-9) == "1.04e-09"
    assert evalpy.p_value(2.4e-5) == evalpy.p_value(2.4e-5, 0.05) == "2.4e-05"


def test_the_line_itself_never_prints_as_the_figure_read_against_it(cli):
    """From the attack pass after issue 26: --prob was printed rounded (0.805 as 80%) beside a
    power printed 80% ('Exact power ...: 80%. That is short of 80%'); and a text was read back in
    floats, where "99.99" / 100 is below 0.9999, so a chance of 99.988% printed as 99.99% against
    '>= 99.99%'. A chance that reaches the line may print as it; one short of it never does."""
    import re
    out = cli("power", "--difference", "0.03", "--discordant", "0.8", "--prob", "0.805")[1]
    assert "needs for 80.5% power" in out and "7066 cases: " in out and "compare uses: 81%\n" in out
    assert evalpy.mcnemar_power(7065, 0.03, 0.8, 0.05) < 0.805 <= evalpy.mcnemar_power(7066, 0.03, 0.8, 0.05)
    for rate, failures, prob in (("0.16", "1", "0.9999"), ("0.01", "6", "0.99999"), ("0.16", "6", "0.805")):
        out = cli("power", "--rate", rate, "--failures", failures, "--prob", prob)[1]
        aim, reached, short = map(float, re.search(r">= ([0-9.]+)% when.*P = ([0-9.]+)% at \d+ rows, ([0-9.]+)% at",
                                                   out, re.S).groups())
        assert reached >= aim > short, out
    assert evalpy.percent(29996 / 30000, 0.9999) == "99.987%" and evalpy.p_value(0.0500001, 0.05) == "0.0500001"


# --- issue 26: the paired difference and its test

def test_newcombe_paired_interval_matches_the_published_example_and_statsmodels():
    # Fagerland, Lydersen and Laake (2017), ch. 8, complete response before and after consolidation
    # therapy (Cavo et al. 2012), [[59, 6], [16, 80]]: -0.0621 (95% CI -0.1186 to -0.0046), as the
    # R package contingencytables tests it (tests/testthat/test-ch8.R)
    d, low, high = evalpy.paired_difference(59, 6, 16, 80)
    assert (round(d, 4), round(low, 4), round(high, 4)) == (-0.0621, -0.1186, -0.0046)
    # where phi is 0 (a margin is empty, or the pairs' correlation is corrected to nothing), method 10
    # is Newcombe's interval for independent proportions: statsmodels computes that one
    from statsmodels.stats.proportion import confint_proportions_2indep
    for both, fixed, broken, neither in [(0, 5, 0, 23), (20, 5, 0, 0), (0, 3, 4, 0), (5, 0, 0, 0), (0, 0, 0, 9),
                                         (2, 3, 4, 1)]:   # the last: ad - bc = -10 ... corrected below 0: phi != 0
        n = both + fixed + broken + neither
        cross = both * neither - broken * fixed
        if 0 <= cross <= n / 2 or 0 in (both + broken, fixed + neither, both + fixed, broken + neither):
            theirs = confint_proportions_2indep(both + fixed, n, both + broken, n, method="newcomb")
            ours = evalpy.paired_difference(both, fixed, broken, neither)
            assert ours[1:] == pytest.approx(tuple(float(x) for x in theirs), abs=1e-12), (both, fixed, broken, neither)


def test_mid_p_mcnemar_against_scipy_and_its_paper():
    for fixed, broken in [(0, 0), (5, 0), (0, 5), (1, 7), (3, 6), (4, 4), (10, 1), (25, 42), (200, 170)]:
        n, k = fixed + broken, min(fixed, broken)
        theirs = 1.0 if n == 0 else (1 - scipy_stats.binom.pmf(k, n, 0.5) / 2 if fixed == broken
                                     else 2 * scipy_stats.binom.cdf(k, n, 0.5) - scipy_stats.binom.pmf(k, n, 0.5))
        assert close(evalpy.mcnemar_mid_p(fixed, broken), theirs), (fixed, broken)
    # As many fixed as broken: the observed table is the only one as extreme, so the mid-p is 1 - half
    # its probability, not 2·P(X <= b) - P(X = b) = 1. The paper's authors compute it so in their own
    # code (R package contingencytables, McNemar_midP_test_paired_2x2.R): 3 and 3 give 1 - 10/64.
    assert evalpy.mcnemar_mid_p(3, 3) == 1 - 10 / 64 and evalpy.mcnemar_mid_p(1, 1) == 0.75
    # Fagerland et al. 2013 (BMC Med Res Methodol 13:91), airway hyper-responsiveness (Bentur et al.
    # 2009), 1 and 7 discordant pairs: exact conditional p = 0.070, mid-p = 0.039
    assert round(evalpy.mcnemar_exact(1, 7), 3) == 0.070 and round(evalpy.mcnemar_mid_p(1, 7), 3) == 0.039


def test_the_t_interval_is_exact_down_to_the_least_alpha():
    # at --alpha 1e-12 the t was read from the quantile 1 - alpha/2, a float that keeps few of alpha's digits: 9e-5 off
    # the interval compare prints on 30 cases' rates
    rates = [0.4 + i / 1000 for i in range(30)]
    mean, low, high, _ = evalpy.mean_difference(rates, alpha=evalpy.LEAST_ALPHA)
    half = scipy_stats.t.isf(evalpy.LEAST_ALPHA / 2, 29) * scipy_stats.sem(rates)
    assert (low, high) == (pytest.approx(mean - half, rel=1e-9), pytest.approx(mean + half, rel=1e-9))
    # and the t at any degrees of freedom
    for df in (1, 2, 3, 5, 10, 29, 100, 1000, 100000):
        for alpha in (0.5, 0.05, 1e-3, 1e-6, 1e-9, 1e-10, 3e-11, 1e-11, evalpy.LEAST_ALPHA):
            assert evalpy.t_critical(alpha, df) == pytest.approx(scipy_stats.t.isf(alpha / 2, df), rel=1e-9), (df, alpha)


def test_the_t_near_its_middle_is_exact():
    """136th round: at --alpha 0.999999999999 the t of 10 df was 2.98e-8, where it is 1.28e-12: df / (df + t * t) was 1 to
    the float for every t below 1e-8. (Near alpha 1, scipy's own t is exact to about 1e-16, not to 1e-9 of itself.)"""
    for df in (1, 2, 10, 1000):
        for alpha in (1 - 1e-12, 1 - 1e-9, 1 - 1e-6, 0.99, 0.9):
            assert evalpy.t_critical(alpha, df) == pytest.approx(scipy_stats.t.isf(alpha / 2, df), rel=1e-9, abs=1e-15), \
                (df, alpha)


def test_the_t_at_any_degrees_of_freedom_is_exact():
    """137th round, S4: at 1e9 degrees of freedom the t was 1.8e-6 off (lgamma(df / 2 + 1/2) - lgamma(df / 2), two
    numbers near 1e10, subtracted), at 1e12 2e-4 (and the continued fraction lost digits as df / (df + t * t) neared 1).
    It is scipy's to 1e-9 from 1 to 1e12 degrees of freedom, and so is the tail it is read from."""
    for df in (1, 7, 123, 54321, 999999, 10 ** 6, 3 * 10 ** 7, 10 ** 9, 4.5e10, 10 ** 12):
        for alpha in (1e-12, 1e-9, 1e-6, 1e-3, 0.05, 0.3, 0.7, 0.99, 0.999999):
            assert evalpy.t_critical(alpha, df) == pytest.approx(scipy_stats.t.isf(alpha / 2, df), rel=1e-9), (df, alpha)
        for t in (1e-7, 1.96, 7.5, 20.0, 39.0):
            assert evalpy.t_two_sided(t, df) == pytest.approx(2 * scipy_stats.t.sf(t, df), rel=1e-9), (df, t)


def test_student_t_against_scipy():
    for df in (1, 2, 3, 5, 9, 27, 99, 1000):
        assert evalpy.t_critical(0.05, df) == pytest.approx(scipy_stats.t.ppf(0.975, df), rel=1e-9)
        for t in (0.0, 0.3, 1.96, 2.5, 7.0, 40.0):
            assert evalpy.t_two_sided(t, df) == pytest.approx(2 * scipy_stats.t.sf(t, df), rel=1e-9, abs=1e-300)


def test_the_mean_of_per_case_differences_against_scipy():
    rng = rng_for("mean difference")
    samples = [[0.2, 0.4, -0.2, 0, 0, 0.6, 0.2], [-1, 0, 1, 1, 0], [0.5, 0.0],
               [rng.choice([-1, -0.6, -0.2, 0, 0.2, 0.6, 1]) for _ in range(200)]]
    for diffs in samples:
        mean, low, high, p = evalpy.mean_difference(diffs)
        t = scipy_stats.ttest_1samp(diffs, 0)
        ci = t.confidence_interval()
        assert mean == pytest.approx(sum(diffs) / len(diffs))
        assert (low, high) == pytest.approx((max(-1, ci.low), min(1, ci.high)), rel=1e-9)
        assert close(p, t.pvalue)
    assert evalpy.mean_difference([0.4]) == (0.4, None, None, None)   # one case: no spread to read
    # every case moved alike: no spread, so no interval (not one of zero width), and the exact
    # sign-flip p: of the 2**3 ways to sign three equal moves, 2 are as far from zero as this one
    assert evalpy.mean_difference([0.5, 0.5, 0.5])[1:] == (None, None, 0.25)
    assert evalpy.mean_difference([0.0, 0.0])[1:] == (None, None, 1.0)


def test_the_smallest_difference_the_test_could_call_by_enumeration():
    def called(fixed, broken):
        n, k = fixed + broken, min(fixed, broken)
        p = 1 - scipy_stats.binom.pmf(k, n, 0.5) / 2 if fixed == broken else \
            2 * scipy_stats.binom.cdf(k, n, 0.5) - scipy_stats.binom.pmf(k, n, 0.5)
        return p <= 0.05
    for cases, changed in [(28, 5), (28, 4), (100, 20), (100, 57), (5, 5), (300, 200)]:
        splits = [abs(changed - 2 * k) for k in range(changed + 1) if called(changed - k, k)]
        expected = min(splits) / cases if splits else None
        assert evalpy.detectable_difference(cases, changed, 0.05) == pytest.approx(expected), (cases, changed)
    assert evalpy.fewest_one_way(0.05, evalpy.mcnemar_mid_p, 28) == 5   # 1/2**5 = 0.031
    assert evalpy.fewest_one_way(0.05, evalpy.mcnemar_mid_p, 4) is None


def readme_power_sessions():
    """(arguments, lines shown) for each `$ python eval.py power ...` in the README's power section."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("### power\n"):]
    section = section[:section.index("\n## ")]
    sessions = []
    for block in section.split("\n\n"):
        lines = block.split("\n")
        if lines[0].startswith("    $ python eval.py power"):
            sessions.append((lines[0].split()[4:], [line[4:] for line in lines[1:]]))
    return sessions


def test_the_readme_power_section_shows_what_power_prints(cli):
    sessions = readme_power_sessions()
    assert len(sessions) == 5
    for argv, shown in sessions:
        code, out, _ = cli("power", *argv)
        assert code == 0 and out.splitlines() == shown, argv


def test_the_readme_power_sections_example_of_an_approximate_count_is_one_as_written(cli):
    """138th round, F3: the README's example of a count nearer --prob than 60 digits tell apart, `--rate 1e-300 --prob
    1e-290`, exited 2 as written (no set of rows gives the default 6 failures that likely); with --failures 1 it is the
    example the sentence says: 10^10 rows, approximate. Each such "(`OPTIONS`: ...)" of the section gives it so."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("### power\n"):]
    examples = re.findall(r"\(`(--[^`]*)`: ", section[:section.index("\n## ")])
    assert examples
    for example in examples:
        code, out, err = cli("power", *example.split(), "--json")
        assert code == 0 and json.loads(out)["approximate"] is True, (example, err)
    assert json.loads(cli("power", *examples[0].split(), "--json")[1])["rows"] == 10 ** 10


def test_no_power_answer_prints_a_figure_on_the_line_it_is_read_against(cli):
    """p-values read against --alpha and chances read against --prob keep the digits that hold them
    on their side (issue 26: --rows 28 --alpha 0.01 printed p = 0.01 for 0.0102). None of these is
    exactly on its line, so none may print as the line."""
    import re
    for rows in range(2, 70, 3):
        for alpha in ("0.05", "0.01", "0.1", "0.0005"):
            for extra in ([], ["--unpaired"]):
                code, out, _ = cli("power", "--rows", rows, "--alpha", alpha, *extra)
                assert all(float(p) != float(alpha) for p in re.findall(r"p = ([0-9.e-]+\d)", out)), (rows, alpha, extra)
    for rate in ("0.16", "0.05", "0.3", "0.01"):
        for prob in ("0.8", "0.5", "0.9", "0.95"):
            out = cli("power", "--rate", rate, "--prob", prob)[1]
            shown = re.findall(r"([0-9.]+)% at \d+", out)
            assert len(shown) == 2 and all(float(x) != 100 * float(prob) for x in shown), (rate, prob)


def test_power_on_few_cases_lists_each_number_of_changed_cases_once(cli):
    """From the newcomer pass on issue 26: on 5 cases 10% and 20% changing are both 1 case, listed twice."""
    lines = cli("power", "--rows", "5")[1].splitlines()
    shares = [l for l in lines if l.startswith("  if ")]
    assert [l.split(":")[0] for l in shares] == ["  if 20% of the cases change verdict (1)",
                                                 "  if 40% of the cases change verdict (2)"]


def test_power_labels_each_line_with_the_share_of_the_cases_it_shows(cli):
    """131st round: `power --rows 5` printed "if 10% of the cases change verdict (1)", where 1 of 5 is 20%, and dropped
    the 20% line as the same count. Each line now gives the share its count is of the cases, in the text and in --json."""
    import re
    for rows in (3, 5, 7, 28, 40, 1000):
        out = cli("power", "--rows", rows)[1]
        for share, count in re.findall(r"  if ([0-9.]+)% of the cases change verdict \((\d+)\)", out):
            assert share == evalpy.percent(int(count) / rows).rstrip("%"), (rows, out)
    assert "  if 20% of the cases change verdict (1)" in cli("power", "--rows", "5")[1]
    import json
    shown = json.loads(cli("power", "--rows", "5", "--json")[1])["by_discordant"]
    assert [(s["share"], s["discordant"]) for s in shown] == [(0.2, 1), (0.4, 2)]   # --json says what the text does


def test_power_past_any_set_of_rows_says_what_to_ask_instead(cli):
    """131st round: `power --rate 1e-15 --failures 1 --prob 0.8` said only that no set of up to 10^15 rows reaches 80%,
    true (about 1.6e15 are needed), with nothing to do."""
    code, out, err = cli("power", "--rate", "1e-15", "--failures", "1", "--prob", "0.8")
    assert code == 2 and "no set of up to 1,000,000,000,000,000 rows reaches 80% at rate 1e-15" in err, err
    assert err.rstrip().endswith("ask for a lower --prob or fewer --failures, or size for a higher --rate"), err


def test_power_on_one_case_says_case(cli):
    code, out, err = cli("power", "--rows", "1")
    assert code == 2 and err.startswith("error: on 1 case no change can be told from chance")


def stepped_rows_for_failures(rate, failures, prob):
    """The search rows_for_failures once made: one row at a time from `failures` up (quadratic in
    effect: `power --rate 0.0001 --failures 3` took minutes), with the comparison it makes now (an exact tie
    reaches the chance: 131st round)."""
    rows = failures
    while not evalpy.reaches_chance(failures, rows, rate, prob):
        rows += 1
    return rows


def test_rows_for_failures_gives_the_answers_stepping_one_row_at_a_time_gave(monkeypatch):
    """Issue 28, item 10: the search doubles then bisects; on a range of inputs it finds the row
    count that stepping one row at a time found, in a few dozen tails at most (counted, not timed)."""
    inputs = [(0.0001, 3, 0.8), (0.16, 6, 0.8), (0.0625, 6, 0.8), (0.5, 1, 0.5), (0.3, 1, 0.999999)]
    inputs += [(rate, failures, prob) for rate in (0.5, 0.16, 0.05, 0.01, 0.002) for failures in (1, 2, 3, 6, 10)
               for prob in (0.05, 0.5, 0.8, 0.95, 0.999)]
    tails = []
    counted = evalpy.failures_at_least
    monkeypatch.setattr(evalpy, "failures_at_least", lambda *a: tails.append(a) or counted(*a))
    for rate, failures, prob in inputs:
        tails.clear()
        rows = evalpy.rows_for_failures(rate, failures, prob)
        assert len(tails) <= 2 * rows.bit_length() + 2, (rate, failures, prob, len(tails))
        assert rows == stepped_rows_for_failures(rate, failures, prob), (rate, failures, prob)
    assert evalpy.rows_for_failures(0.0001, 3, 0.8) == 42790


def test_power_rate_answers_the_issues_question_at_once(cli):
    code, out, _ = cli("power", "--rate", "0.0001", "--failures", "3")
    assert code == 0 and out.startswith("42790 rows: the fewest that give at least 3 failures with probability >= 80%")
    assert scipy_stats.binom.sf(2, 42790, 0.0001) >= 0.8 > scipy_stats.binom.sf(2, 42789, 0.0001)


@pytest.mark.parametrize("prob", ["0.9999999999999999", "0.999999999", "0.99999999999", "0.9999999999999998"])
def test_a_chance_aimed_close_to_one_prints_apart_from_its_line(cli, prob):
    """From the attack on issue 28: --prob 0.9999999999999999 printed "probability >= 100%" and
    "P = 100.000000000% at 93 rows, 100.000000000% at 92"; --prob 0.999999999 printed the row below
    as 99.999999900%, the line itself, though it is 0.9999999989999994. The line keeps every digit
    it was given, and each figure the digits that put it on its side of the line (and never 100%
    below 1)."""
    import re
    from fractions import Fraction
    code, out, err = cli("power", "--rate", "0.5", "--failures", "10", "--prob", prob)
    assert code == 0, err
    line = re.search(r"probability >= ([0-9.]+)%", out).group(1)
    assert Fraction(line) / 100 == Fraction(prob), out
    (at, rows), before = re.search(r"([0-9.]+)% at (\d+) rows", out).groups(), re.search(r"([0-9.]+)% at \d+;", out).group(1)
    # (as written: since the 132nd round 0.9999999999999999 is that decimal, which 93 rows miss by 1e-17, not the float)
    assert exact_chance(10, int(rows), 0.5) >= Fraction(prob) > exact_chance(10, int(rows) - 1, 0.5)
    assert Fraction(before) / 100 < Fraction(prob) and Fraction(before) < 100, out
    assert Fraction(at) / 100 >= Fraction(prob) and (Fraction(at) < 100 or evalpy.failures_at_least(10, int(rows), 0.5) == 1), out


def scipy_fewest_cases(d, p, alpha, prob, most=400):
    """The smallest n whose exact power (scipy's brute force) reaches prob, scanning every n from 1."""
    return next((n for n in range(1, most + 1) if scipy_mcnemar_power(n, d, p, alpha) >= prob), None)


@pytest.mark.parametrize("d, p, alpha, prob", [
    (1, 1, 0.05, 0.8),          # the fifth attack on issue 28 (item 4): 4 cases at 0% power, 5 the test's minimum
    (0.95, 0.95, 0.05, 0.8),    # 5 cases at 77%
    (0.1, 0.14, 0.05, 1e-9),    # Connor's bracket below zero: 1 case
    (0.10, 0.14, 0.05, 0.8), (0.3, 0.5, 0.05, 0.9), (0.5, 0.6, 0.01, 0.8), (-0.2, 0.3, 0.05, 0.5),
    (0.4, 0.4, 0.1, 0.95), (0.25, 0.9, 0.05, 0.8),
])
def test_power_gives_the_smallest_size_whose_exact_power_reaches_the_aim(cli, d, p, alpha, prob):
    """From the fifth attack on issue 28 (item 4): the answer was Connor's normal approximation, and a
    line below it said its exact power fell short (0% at 4 cases for --difference 1 --discordant 1,
    under the test's minimum of 5). The size given is now the smallest whose exact power, by scipy's
    brute force, reaches --prob, never one below the test's minimum."""
    import json
    answer = json.loads(cli("power", "--difference", d, "--discordant", p, "--alpha", alpha, "--prob", prob, "--json")[1])
    fewest = scipy_fewest_cases(d, p, alpha, prob)
    assert answer["cases"] == fewest, (answer, fewest)
    assert answer["power"] == pytest.approx(scipy_mcnemar_power(fewest, d, p, alpha), rel=1e-9)
    assert answer["cases"] >= evalpy.fewest_one_way(alpha, evalpy.mcnemar_mid_p, 1000)
    code, out, _ = cli("power", "--difference", d, "--discordant", p, "--alpha", alpha, "--prob", prob)
    assert code == 0 and out.startswith(f"{fewest} cases: ") and f"Exact power at {fewest} cases" in out
    assert "short of" not in out


def test_power_reaches_the_aim_at_tens_of_thousands_of_cases(cli):
    """--difference 0.01 --discordant 1: Connor's 78487 cases have an exact power of 79.9%; the size
    given reaches 80%, and one case fewer does not (the power is a step function of the size)."""
    import json
    answer = json.loads(cli("power", "--difference", "0.01", "--discordant", "1", "--json")[1])
    n = answer["cases"]
    assert answer["connor_cases"] == 78487 and n > 78487 and answer["power"] >= 0.8
    assert evalpy.mcnemar_power(n - 1, 0.01, 1, 0.05) < 0.8 <= evalpy.mcnemar_power(n, 0.01, 1, 0.05)


def test_power_refuses_a_setting_the_question_does_not_read(cli):
    """Round 107 (the command line against the README): --prob of a question of --rows, --alpha of the chance of seeing
    failures, --failures of a paired comparison were dropped without a word, the answer printed as if unasked."""
    for argv, said in ((["--rate", "0.16", "--rows", "38", "--alpha", "0.01"], "--alpha does not change the chance"),
                       (["--rows", "28", "--prob", "0.9"], "--prob does not change what compare can tell on --rows"),
                       (["--difference", "0.1", "--discordant", "0.14", "--failures", "3"], "--failures does not change")):
        code, out, err = cli("power", *argv)
        assert code == 2 and said in err and "leave it out" in err, (argv, err)
    assert cli("power", "--difference", "0.1", "--discordant", "0.14", "--prob", "0.9", "--alpha", "0.01")[0] == 0
    # (its review) a setting of no question asked: the question is what is missing; two questions: that first
    assert "power needs --difference with --discordant" in cli("power", "--prob", "0.9")[2]
    assert "--unpaired goes with --rows alone" in cli("power", "--rate", "0.1", "--rows", "40", "--unpaired", "--alpha", "0.01")[2]
    assert "--prob does not change the failures Fisher's test needs" in cli("power", "--rows", "40", "--unpaired", "--prob", "0.9")[2]
    assert cli("power", "--rate", "0.16", "--failures", "3", "--prob", "0.9")[0] == 0


def test_power_says_so_when_no_size_it_enumerates_reaches_the_aim(cli):
    """Connor's size just under the enumeration's bound, its exact power short of 80% and no size up
    to the bound reaching it: the answer is Connor's, said to be short, never a size it did not check."""
    import json
    argv = ("power", "--difference", "0.002657820000000013", "--discordant", "0.9")
    out = cli(*argv)[1]
    assert out.startswith("999996 cases: ") and "no size up to there reaches it" in out and "compare uses: 79.999%" in out
    answer = json.loads(cli(*argv, "--json")[1])
    assert answer["exact"] is False and answer["cases"] == answer["connor_cases"] == 999996 and answer["power"] < 0.8

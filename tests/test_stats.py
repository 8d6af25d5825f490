"""Statistics: every function against scipy (1e-9 relative) on edge cases and a seeded random
sample each, and the seeds' figures."""

import gc
import random
import warnings
from fractions import Fraction
from math import comb

import pytest

scipy_stats = pytest.importorskip("scipy.stats", reason="pip install -r requirements-dev.txt (scipy checks the statistics)")

from conftest import evalpy

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
        assert close(evalpy.binom_at_least(k, n, p), theirs), (k, n, p)


def test_extreme_tails_against_exact_arithmetic():
    for k, n, p in [(154, 181, 0.008932511417706547), (290, 300, 0.01), (1, 300, 1e-9), (150, 300, 0.5)]:
        assert close(evalpy.binom_at_least(k, n, p), exact_tail(k, n, p))


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
    assert round(evalpy.binom_at_least(6, 48, 0.16), 2) == 0.80
    assert round(evalpy.binom_at_least(6, 38, 0.16), 2) == 0.58
    assert evalpy.rows_for_failures(0.0625, 6, 0.8) == 126
    assert evalpy.failures_for_fisher(40, 0.05) == 6
    assert evalpy.failures_for_fisher(20, 0.05) == 5


def test_the_seed_pass_k_example():
    # a task passed 9 times in 10: pass@10 is certain, pass^10 (from 0.9 per trial) about 0.35
    assert evalpy.pass_at_k(10, 9, 10) == 1.0
    assert evalpy.pass_hat_k(10, 9, 10) == 0.0   # unbiased: 9 passes cannot make 10
    assert evalpy.pass_hat_k(10, 9, 1) == pytest.approx(0.9)


@pytest.mark.parametrize("argv, lines", [
    (["--rate", "0.16", "--failures", "6", "--prob", "0.8"], ["48 rows:", "(P = 80.14% at 48 rows, 78.44% at 47;"]),
    (["--rate", "0.16", "--rows", "38"], ["58.2%: the chance of seeing at least 6 failures in 38 rows"]),
    (["--rate", "0.16", "--rows", "48"], ["80.1%: the chance"]),
    (["--rate", "6.25%"], ["126 rows:"]),
    (["--rows", "40"], ["6 failures:", "(34/40 vs 40/40 gives p = 0.026; 35/40 gives p = 0.055)."]),
    (["--rows", "20", "--alpha", "0.05"], ["5 failures:", "(15/20 vs 20/20 gives p = 0.047; 16/20 gives p = 0.11)."]),
])
def test_power_command(cli, argv, lines):
    code, out, err = cli("power", *argv)
    assert code == 0, err
    for expected, got in zip(lines, out.splitlines()):
        assert got.startswith(expected)


def test_power_command_errors(cli):
    assert cli("power")[0] == 2
    with pytest.raises(SystemExit):
        cli("power", "--rate", "1.5")


def test_power_help_and_bounds_read_plainly(project, cli, capsys):
    with pytest.raises(SystemExit):
        evalpy.main(["power", "--help"])
    assert "80% chance" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        evalpy.main(["power", "--rate", "1"])
    assert "between 0 and 1, exclusive" in capsys.readouterr().err


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
    # Fagerland et al. 2013 (BMC Med Res Methodol 13:91), airway hyper-responsiveness (Bentur et al.
    # 2009), 1 and 7 discordant pairs: exact conditional p = 0.070, mid-p = 0.039
    assert round(evalpy.mcnemar_exact(1, 7), 3) == 0.070 and round(evalpy.mcnemar_mid_p(1, 7), 3) == 0.039


def test_student_t_against_scipy():
    for df in (1, 2, 3, 5, 9, 27, 99, 1000):
        assert evalpy.t_quantile(0.975, df) == pytest.approx(scipy_stats.t.ppf(0.975, df), rel=1e-9)
        for t in (0.0, 0.3, 1.96, 2.5, 7.0, 40.0):
            assert evalpy.t_two_sided(t, df) == pytest.approx(2 * scipy_stats.t.sf(t, df), rel=1e-9, abs=1e-300)


def test_the_mean_of_per_case_differences_against_scipy():
    rng = rng_for("mean difference")
    samples = [[0.2, 0.4, -0.2, 0, 0, 0.6, 0.2], [-1, 0, 1, 1, 0], [0.5, 0.5],
               [rng.choice([-1, -0.6, -0.2, 0, 0.2, 0.6, 1]) for _ in range(200)]]
    for diffs in samples:
        mean, low, high, p = evalpy.mean_difference(diffs)
        t = scipy_stats.ttest_1samp(diffs, 0)
        ci = t.confidence_interval()
        assert mean == pytest.approx(sum(diffs) / len(diffs))
        assert (low, high) == pytest.approx((max(-1, ci.low), min(1, ci.high)), rel=1e-9)
        assert close(p, t.pvalue)
    assert evalpy.mean_difference([0.4]) == (0.4, None, None, None)   # one case: no spread to read
    assert evalpy.mean_difference([0.5, 0.5, 0.5])[1:] == (0.5, 0.5, 0.0)   # every case moved alike: no spread


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
    assert evalpy.fewest_to_call(28, 0.05) == 5 and evalpy.fewest_to_call(4, 0.05) is None   # 1/2**5 = 0.031

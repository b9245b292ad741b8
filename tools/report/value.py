"""A measured value over seeds: the mean with its 95 % confidence half-width (Student's t)."""
import math

# Student's t at 95 % (two-sided) by degrees of freedom; beyond 30 the normal's 1.96.
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228,
       11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093,
       20: 2.086, 21: 2.080, 22: 2.074, 23: 2.069, 24: 2.064, 25: 2.060, 26: 2.056, 27: 2.052, 28: 2.048,
       29: 2.045, 30: 2.042}

# Thresholds are often computed from a load grid (0.5 + 0.05 is 0.5499999999999999): a mean
# this close to a threshold counts as on it.
ROUNDING = 1e-9


class Value:
    """Mean of per-seed samples with a 95 % confidence half-width (None with one sample)."""

    def __init__(self, samples):
        self.samples = [s for s in samples if s is not None]
        n = len(self.samples)
        self.mean = sum(self.samples) / n if n else float("nan")
        if n > 1:
            sd = math.sqrt(sum((s - self.mean) ** 2 for s in self.samples) / (n - 1))
            self.half = T95.get(n - 1, 1.96) * sd / math.sqrt(n)
        else:
            self.half = None

    def text(self, digits=3, scale=1.0, unit=""):
        if not self.samples:
            return "—"
        m = self.mean * scale
        if self.half is None:  # one seed: the method section says there is no interval
            return f"{m:.{digits}f}{unit}"
        return f"{m:.{digits}f} ± {self.half * scale:.{digits}f}{unit}"

    def low(self):
        return self.mean - (self.half or 0.0)

    def high(self):
        return self.mean + (self.half or 0.0)

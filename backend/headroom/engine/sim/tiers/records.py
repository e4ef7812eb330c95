"""What a completed request or page leaves in the multi-tier loop's state (loop.py): its
latency in the sketches, per-class sums and SLA windows (a page's requests count there
once, as the page's load time), and its trace row when traces are kept."""

from __future__ import annotations

import math

from numba import njit

from headroom.engine.sim import sketch
from headroom.engine.sim.tiers import state as S

_INV_FINE = 1.0 / sketch.log_gamma(sketch.FINE_ALPHA)
_INV_COARSE = 1.0 / sketch.log_gamma(sketch.COARSE_ALPHA)


@njit(cache=True, inline="always")
def record_trace(W, j, now):
    """Request j's trace row: its start, demand and VM at the first tier."""
    ic, ip, jf, ji, tr = W.ic, W.ip, W.jf, W.ji, W.tr
    n, n_tiers, p = ic[S.IC_TRACE_N], ip[S.IP_TIERS], ji[j, S.JI_PAGE]
    tr[n, 0], tr[n, 1], tr[n, 2] = jf[j, S.JF_ARRIVAL], jf[j, S.jf_start(n_tiers)], now
    tr[n, 3], tr[n, 4] = jf[j, 1 + 2 * n_tiers], ji[j, S.JI_VM]
    tr[n, 5] = W.pf[p, S.PF_ARRIVAL] if p >= 0 else math.nan
    tr[n, 6] = ji[j, S.JI_CLASS]
    ic[S.IC_TRACE_N] = n + 1


@njit(cache=True, inline="always")
def record_window(W, x, now):
    """A response time ``x`` (a request's latency or a page's load time) in its SLA window."""
    fp, win, winh = W.fp, W.win, W.winh
    w = min(int(now / fp[S.FP_WINDOW_S]), len(win) - 1)
    win[w, 0] += 1
    win[w, 1] += x > fp[S.FP_SLA_S]
    winh[w, sketch.bucket_of(x, _INV_COARSE, winh.shape[1])] += 1


@njit(cache=True, inline="always")
def record_done(W, j, now):
    ic, sc, ip, jf, ji = W.ic, W.sc, W.ip, W.jf, W.ji
    hists, csum = W.hists, W.csum
    lat, c = now - jf[j, S.JF_ARRIVAL], ji[j, S.JI_CLASS]
    hists[2 * c, sketch.bucket_of(lat, _INV_FINE, hists.shape[1])] += 1
    csum[c, S.CS_LAT_SUM] += lat
    csum[c, S.CS_LAT_MAX] = max(csum[c, S.CS_LAT_MAX], lat)
    if ji[j, S.JI_PAGE] < 0:
        record_window(W, lat, now)
    sc[S.SC_LAT_SUM] += lat
    sc[S.SC_TIME_SUM] += lat
    ic[S.IC_COMPLETED] += 1
    ic[S.IC_TICK_DONE] += 1
    ic[S.IC_IN_SYSTEM] -= 1
    ic[S.IC_LEFT] += 1
    if ip[S.IP_TRACE]:
        record_trace(W, j, now)


@njit(cache=True)
def record_page(W, p, now):
    """Page p's last request ended: its load time recorded unless one of them failed."""
    ic, pf, pi, hists, csum = W.ic, W.pf, W.pi, W.hists, W.csum
    ic[S.IC_PAGES_DONE] += 1
    if pi[p, S.PI_FAILED]:
        ic[S.IC_PAGES_FAILED] += 1
        return
    plt, c = now - pf[p, S.PF_ARRIVAL], pi[p, S.PI_CLASS]
    hists[2 * c + 1, sketch.bucket_of(plt, _INV_FINE, hists.shape[1])] += 1
    csum[c, S.CS_PLT_SUM] += plt
    csum[c, S.CS_PLT_MAX] = max(csum[c, S.CS_PLT_MAX], plt)
    record_window(W, plt, now)

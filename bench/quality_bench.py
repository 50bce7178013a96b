"""The Quality view's time and memory (issue 28): a snapshot of a --demo plant of
QUALITY_ASSETS assets (default 10,000) taken outside a fresh window of the release app,
then the Quality tab asked for: from the click to the frame that paints the verdict and
the groups of findings, first and again (Audit again); memory (PSS of the app's process
tree) over the same window's idle figure on the demo profile and over the figure just
before asking.

Run by bench/quality.sh (under Xvfb, in a D-Bus session with a fresh GNOME Keyring).
Environment: AAS_BROWSER_BIN, AASMD_BIN (release builds), QUALITY_ASSETS, QUALITY_RUNS
(timings, default 3).
"""

from app_bench import MB, DemoSnapshotInWindow, machine_line, median, settled_pss, time_until

TARGET_MS = 2000
TARGET_EXTRA_MB = 80
PAINTED = ("document.getElementById('quality-status').textContent.includes('audited')"
           " && document.querySelector('#quality-groups tr') && document.querySelector('#quality-gaps tr')")


def main():
    bench = DemoSnapshotInWindow("QUALITY", 10000)
    w, idle, taken, take_s, assets = bench.w, bench.idle, bench.taken, bench.take_s, bench.assets
    try:
        before = settled_pss(w.pid)
        times = [time_until(w, "target.click();", PAINTED, "#tab-quality")]
        for _ in range(bench.runs - 1):
            times.append(time_until(w, "target.click();", PAINTED, "#quality-run"))
        after = settled_pss(w.pid)
        status = w.wd.text_content("#quality-status")
    finally:
        bench.close()
    extra = after - idle
    rows = [
        f"Quality view ({machine_line()}; a {taken['shells']:,}-shell snapshot of `aasmd demo-service --demo {assets}`,"
        f" taken outside the app in {take_s:.0f} s)",
        "",
        "| what | measured | target | met |",
        "|---|---|---|---|",
        f"| asking (the tab, then Audit again) to the verdict and findings painted | {median(times):.0f} ms"
        f" (median of {len(times)}: {', '.join(f'{t:.0f}' for t in times)}) | ≤ {TARGET_MS} ms"
        f" | {'yes' if median(times) <= TARGET_MS else 'no'} |",
        f"| memory after the audits | {after / MB:.1f} MB (idle + {extra / MB:.1f}; + {(after - before) / MB:.1f} over"
        f" the window before asking) | ≤ idle + {TARGET_EXTRA_MB} MB | {'yes' if extra <= TARGET_EXTRA_MB * MB else 'no'} |",
        "",
        f"The view said: {status}",
    ]
    print("\n".join(rows))


if __name__ == "__main__":
    main()

"""analysis/python/gbesim_results.py round-trips a real sweep (run here by the gbesim binary named
by $GBESIM) into DataFrames with numeric columns, and results.sqlite holds the same numbers as
the CSV files. Run by ctest with Debian's python3 and pandas."""

import csv
import math
import os
import pathlib
import shutil
import subprocess
import tempfile
import unittest

import pandas as pd
from pandas.api import types

import gbesim_results as g

SCENARIO = """{"name": "typed", "description": "", "duration_ns": 1000000, "replications": 2,
 "stations": {"a": {"traffic": [{"pattern": "saturated", "to": "b", "frame_bytes": 64}]},
              "b": {}},
 "links": [{"between": ["a", "b"], "cable_m": 10}],
 "sweep": {"speed": [{"label": "100 Mb/s", "set": {"rate_mbps": 100}},
                     {"label": "1000 Mb/s", "set": {"rate_mbps": 1000}}],
           "stations.a.traffic[0].frame_bytes": [64, 1518]}}"""

SIZE = "stations.a.traffic[0].frame_bytes"


def number(text):
    return float(text) if text != "" else math.nan


class SweepRoundTrip(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = pathlib.Path(cls.tmp.name)
        (cls.dir / "s.json").write_text(SCENARIO)
        subprocess.run(
            [os.environ["GBESIM"], "sweep", "s.json", "--out", "sw", "-j", "2", "--series",
             "250us", "--quiet"],
            cwd=cls.dir, check=True)
        cls.sweep = cls.dir / "sw"
        with open(cls.sweep / "summary.csv", newline="") as f:
            cls.summary_rows = list(csv.DictReader(f))
        with open(cls.sweep / "points.csv", newline="") as f:
            cls.point_rows = list(csv.DictReader(f))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_axes_are_the_swept_ones_in_order(self):
        self.assertEqual(g.axes(self.sweep), ["speed", SIZE])

    def test_summary_has_numeric_columns_and_the_csv_numbers(self):
        df = g.load_sweep(self.sweep)
        self.assertEqual(len(df), len(self.summary_rows))
        for column in (SIZE, "rate_mbps", "n", "mean", "ci95_half_width"):
            self.assertTrue(types.is_numeric_dtype(df[column]), column)
        # The label stays text, in the sweep's order; the number behind it has its own column.
        self.assertEqual(list(df["speed"].cat.categories), ["100 Mb/s", "1000 Mb/s"])
        fast = df[(df["speed"] == "1000 Mb/s") & (df[SIZE] == 1518)]
        self.assertTrue((fast["rate_mbps"] == 1000).all())
        tput = df[(df["component"] == "network") & (df["name"] == "delivered_throughput")]
        self.assertEqual(len(tput), 4)
        for row in self.summary_rows:
            if row["component"] == "network" and row["name"] == "delivered_throughput":
                match = tput[tput["point"] == int(row["point"])]
                self.assertEqual(match["mean"].iloc[0], float(row["mean"]))
        # A statistic without a value is NaN, never the text "nan".
        self.assertFalse(df.select_dtypes("object").isin(["nan", "NaN"]).any().any())

    def test_per_run_has_one_numeric_column_per_scalar(self):
        df = g.load_sweep(self.sweep, per_run=True)
        self.assertEqual(len(df), 8)
        self.assertTrue(types.is_numeric_dtype(df["a.mac.frames_transmitted_ok"]))
        self.assertTrue(types.is_numeric_dtype(df[SIZE]))
        for row in self.point_rows:
            got = df[df["run"] == int(row["run"])]["a.mac.tx_throughput"].iloc[0]
            self.assertEqual(got, number(row["a.mac.tx_throughput"]))

    def test_one_run_and_the_series(self):
        run = g.load_run(self.sweep / "runs" / "3")
        self.assertTrue(types.is_float_dtype(run["value"]))
        ok = run[(run["component"] == "a.mac") & (run["name"] == "frames_transmitted_ok")]
        expected = [r for r in self.point_rows if r["run"] == "3"][0]
        self.assertEqual(ok["value"].iloc[0], float(expected["a.mac.frames_transmitted_ok"]))
        # flows.csv: the flow's numbers are numbers, equal to its rows in scalars.csv.
        flows = g.load_flows(self.sweep / "runs" / "3")
        self.assertEqual(list(flows["flow"]), ["a.source0.to_b"])
        for column in ["frames_sent", "frames_received", "frames_lost", "delay_mean_ns", "jitter_ns"]:
            self.assertTrue(types.is_numeric_dtype(flows[column]), column)
        got = run[(run["component"] == "a.source0.to_b") & (run["name"] == "frames_received")]
        self.assertEqual(flows["frames_received"].iloc[0], got["value"].iloc[0])
        self.assertGreater(flows["frames_received"].iloc[0], 0)
        series = g.load_series(self.sweep)
        self.assertEqual(sorted(series["run"].unique()), list(range(8)))
        # 1 ms in 250 us intervals: the last interval ends with the run.
        self.assertEqual(sorted(series["time_s"].unique()), [0.00025, 0.0005, 0.00075, 0.001])

    def test_sqlite_holds_the_same_numbers(self):
        self.assertFalse((self.sweep / "results.sqlite.tmp").exists())
        runs = g.read_sql(self.sweep, "SELECT * FROM runs ORDER BY run")
        self.assertEqual(list(runs["run"]), list(range(8)))
        self.assertEqual(list(runs["point"]), [0, 0, 1, 1, 2, 2, 3, 3])
        self.assertTrue((runs["status"] == "complete").all())
        scalars = g.read_sql(
            self.sweep,
            "SELECT run, value FROM scalars WHERE component = 'a.mac' AND name = 'tx_throughput'")
        for row in self.point_rows:
            got = scalars[scalars["run"] == int(row["run"])]["value"].iloc[0]
            self.assertEqual(got, number(row["a.mac.tx_throughput"]))
        summary = g.read_sql(self.sweep, "SELECT * FROM summary")
        self.assertEqual(len(summary), len(self.summary_rows))
        parameters = g.read_sql(
            self.sweep, "SELECT point, value FROM parameters WHERE path = 'rate_mbps' ORDER BY point")
        self.assertEqual(list(parameters["value"]), [100, 100, 1000, 1000])
        points = g.read_sql(self.sweep, "SELECT * FROM points WHERE axis = 'speed' ORDER BY point")
        self.assertEqual(list(points["label"]), ["100 Mb/s", "100 Mb/s", "1000 Mb/s", "1000 Mb/s"])
        self.assertTrue(points["value"].isna().all())
        series = g.read_sql(self.sweep, "SELECT COUNT(*) AS n FROM series")
        self.assertEqual(series["n"].iloc[0], len(g.load_series(self.sweep)))
        # Wide: a column per axis beside every summary row, without a join per axis.
        wide = g.read_sql(
            self.sweep,
            "SELECT point, speed, mean FROM summary_wide WHERE component = 'a.mac' "
            "AND name = 'tx_throughput' ORDER BY point")
        self.assertEqual(list(wide["speed"]), ["100 Mb/s", "100 Mb/s", "1000 Mb/s", "1000 Mb/s"])
        for row in self.summary_rows:
            if row["component"] == "a.mac" and row["name"] == "tx_throughput":
                got = wide[wide["point"] == int(row["point"])]["mean"].iloc[0]
                self.assertEqual(got, number(row["mean"]))
        axes = g.read_sql(self.sweep, "SELECT * FROM point_axes ORDER BY point")
        self.assertEqual(list(axes.columns)[0], "point")
        self.assertEqual(len(axes), 4)

    def test_a_missing_directory_is_a_clear_error(self):
        with self.assertRaisesRegex(FileNotFoundError, "nowhere: no such results directory"):
            g.load_sweep(self.dir / "nowhere")

    def test_a_damaged_directory_is_refused_naming_the_file(self):
        # A copy of the sweep, damaged one file at a time: a FIFO summary.csv does not block, a
        # truncated scalars.csv, a summary.csv with one byte changed and an edited sealed
        # sweep.json are each a ValueError naming the file; the undamaged copy reads.
        damaged = self.dir / "damaged"
        shutil.copytree(self.sweep, damaged)
        self.assertEqual(len(g.load_sweep(damaged)), len(self.summary_rows))
        summary = (damaged / "summary.csv").read_bytes()
        (damaged / "summary.csv").unlink()
        os.mkfifo(damaged / "summary.csv")
        with self.assertRaisesRegex(ValueError, "summary.csv: is not a regular file"):
            g.load_sweep(damaged)
        (damaged / "summary.csv").unlink()
        (damaged / "summary.csv").write_bytes(summary.replace(b"complete\n", b"completf\n", 1))
        with self.assertRaisesRegex(ValueError, "summary.csv: damaged: not the size and CRC-32"):
            g.load_sweep(damaged)
        (damaged / "summary.csv").write_bytes(summary)
        record = (damaged / "sweep.json").read_text()
        (damaged / "sweep.json").write_text(record.replace('"name": "typed"', '"name": "typeD"'))
        with self.assertRaisesRegex(ValueError, "sweep.json: damaged: its record_crc32"):
            g.load_sweep(damaged)
        run = damaged / "runs" / "0"
        scalars = (run / "scalars.csv").read_bytes()
        (run / "scalars.csv").write_bytes(scalars[: len(scalars) // 2])
        with self.assertRaisesRegex(ValueError, "scalars.csv: damaged"):
            g.load_run(run)


if __name__ == "__main__":
    unittest.main()

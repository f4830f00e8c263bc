/**
 * CPU per addHours call (an SLA due time in business hours), as the SLA recompute and the automation timers call it:
 * 2,000 starts 4 h 22 min apart through 2026 in Europe/Berlin, Monday to Friday 09:00-17:00 and every night
 * 22:00-06:00, targets of 4, 24 and 72 business hours; each row run twice (the second with the formatters warm).
 * Run: nice -n 5 node --import tsx bench/sla-due.ts
 */
import { loadavg } from "node:os";
import { addHours, type OpeningWindow } from "../apps/api/src/modules/automation/sla.ts";

const windows: [string, OpeningWindow][] = [
  ["Mon-Fri 09-17", { days: [1, 2, 3, 4, 5], opens: 9 * 60, closes: 17 * 60 }],
  ["nights 22-06", { days: [0, 1, 2, 3, 4, 5, 6], opens: 22 * 60, closes: 6 * 60 }],
];
const starts = Array.from({ length: 2000 }, (_, i) => new Date(Date.UTC(2026, 0, 1) + i * 4.37 * 3_600_000));
for (const round of [1, 2]) {
  for (const [name, window] of windows) {
    for (const hours of [4, 24, 72]) {
      const before = process.cpuUsage();
      for (const start of starts) addHours(start, hours, window, "Europe/Berlin");
      const used = process.cpuUsage(before);
      const perCall = (used.user + used.system) / starts.length;
      console.log(`round ${round} ${name} ${hours} h: ${perCall.toFixed(0)} µs CPU a call`);
    }
  }
}
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);

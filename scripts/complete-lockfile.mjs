// npm run lockfile:complete — records other platforms' optional binaries in package-lock.json.
//
// Packages such as Biome, Tailwind's oxide and Rollup ship one optional package per platform.
// When the registry in use serves only this platform's binaries, npm leaves the others out of
// the lock, and `npm ci` then refuses the lock as "out of sync". This adds each missing one with
// its os/cpu constraints (from its name), so `npm ci` skips it as foreign without fetching it.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const LOCK = "package-lock.json";
const result = spawnSync("npm", ["ci", "--dry-run", "--ignore-scripts"], { encoding: "utf8" });
const missing = [...(result.stderr + result.stdout).matchAll(/Missing: (\S+?)@\S* from lock file/g)].map(
  (m) => m[1],
);
if (missing.length === 0) {
  console.log("package-lock.json is complete: npm ci accepts it.");
  process.exit(0);
}

const OS = ["android", "darwin", "freebsd", "openbsd", "openharmony", "win32", "linux"];
const CPU = ["arm64", "x64", "ia32", "arm", "loong64", "ppc64", "riscv64", "s390x"];

function platformOf(name) {
  const base = name.split("/").pop();
  if (base.includes("wasm32")) return { cpu: ["wasm32"] };
  const os = OS.find((o) => base.includes(`-${o}-`) || base.endsWith(`-${o}`));
  const cpu = CPU.find((c) => new RegExp(`-${c}(-|$)`).test(base));
  if (!os || !cpu) throw new Error(`Cannot tell the platform of ${name}; add it by hand.`);
  const libc = base.includes("musl") ? "musl" : os === "linux" ? "glibc" : undefined;
  return libc ? { os: [os], cpu: [cpu], libc: [libc] } : { os: [os], cpu: [cpu] };
}

const lock = JSON.parse(fs.readFileSync(LOCK, "utf8"));
const packages = lock.packages;
for (const name of missing) {
  const parent = Object.values(packages).find((p) => p.optionalDependencies?.[name]);
  if (!parent) throw new Error(`No package in the lock lists ${name} as optional.`);
  packages[`node_modules/${name}`] = {
    version: parent.optionalDependencies[name],
    ...(parent.dev ? { dev: true } : {}),
    optional: true,
    ...platformOf(name),
  };
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
fs.writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`Added ${missing.length} platform packages to ${LOCK}.`);

/**
 * The npm registry this project is built against serves only the Linux (glibc) builds of
 * platform-specific optional packages (biome's CLI, workerd). `npm install` then leaves the other
 * platforms' entries out of package-lock.json, and `npm ci` refuses such a lockfile ("Missing:
 * ... from lock file"). This adds each missing optional package as an entry with its platform
 * constraints, so `npm ci` skips it here and installs it from a full registry elsewhere.
 * Idempotent; plain JavaScript because it runs before anything is installed.
 */
import { readFileSync, writeFileSync } from "node:fs";

const LOCK = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(LOCK, "utf8"));
const packages = lock.packages;

/** The os, cpu and libc a platform package is for, read from its name. */
function platformOf(name) {
  const os = [
    "darwin",
    "win32",
    "windows",
    "linux",
    "android",
    "freebsd",
    "openbsd",
    "netbsd",
    "sunos",
    "aix",
  ].find((candidate) => name.includes(candidate));
  if (!os) return null;
  const cpu = /arm64|aarch64/.test(name)
    ? "arm64"
    : /x64|-64\b|x86_64/.test(name)
      ? "x64"
      : /ia32|x86/.test(name)
        ? "ia32"
        : /arm/.test(name)
          ? "arm"
          : null;
  return {
    os: [os === "windows" ? "win32" : os],
    ...(cpu ? { cpu: [cpu] } : {}),
    ...(name.includes("musl") ? { libc: ["musl"] } : {}),
  };
}

/**
 * Where Node would find `dep` from the package at `from`, provided the copy found there is the
 * exact version pinned (platform packages are pinned; npm nests other versions deeper). Ranges are
 * taken as satisfied by whatever copy is found.
 */
function resolve(from, dep, version) {
  let dir = from;
  for (;;) {
    const candidate = `${dir ? `${dir}/` : ""}node_modules/${dep}`;
    if (packages[candidate]) {
      const exactPin = /^\d+\.\d+\.\d+(-[\w.]+)?$/.test(version);
      return !exactPin || packages[candidate].version === version ? candidate : null;
    }
    if (!dir) return null;
    const at = dir.lastIndexOf("/node_modules/");
    dir = at === -1 ? "" : dir.slice(0, at);
  }
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  const optional = entry.optionalDependencies ?? {};
  const present = Object.entries(optional)
    .map(([dep, version]) => resolve(path, dep, version))
    .find(Boolean);
  for (const [dep, version] of Object.entries(optional)) {
    if (resolve(path, dep, version)) continue;
    const platform = platformOf(dep);
    if (!platform) {
      console.warn(`complete-lockfile: cannot tell the platform of ${dep}; left out`);
      continue;
    }
    // Place it beside a sibling npm did install, as npm itself would have.
    const parent = present ? present.slice(0, present.lastIndexOf("node_modules/")) : `${path}/`;
    packages[`${parent}node_modules/${dep}`] = { version, optional: true, ...platform };
    added++;
  }
}

if (added > 0) {
  lock.packages = Object.fromEntries(
    Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
  );
  writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
}
console.log(`complete-lockfile: ${added} platform entr${added === 1 ? "y" : "ies"} added`);

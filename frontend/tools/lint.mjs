// Lint of the site's ES modules with Node alone (no dependency): every module parses, every
// import names a module that exists and a name it exports (checked by linking the modules
// without running them), every imported name is used, and a few rules hold that keep the
// pages safe under a strict Content-Security-Policy and the code plain:
//   no innerHTML / outerHTML / insertAdjacentHTML / document.write (elements are built),
//   no eval or new Function, no console calls, no `var`, no loose equality (== and !=),
//   no trailing white space, no debugger statement.
//
// Usage: node --experimental-vm-modules --no-warnings frontend/tools/lint.mjs [files...]
// (without files: the modules under frontend/static/frontend and the unit tests under
// tests/frontend/js). Exit status 1 on a problem.

import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";

const HERE = path.dirname(new URL(import.meta.url).pathname);
const ROOTS = [path.resolve(HERE, "..", "static", "frontend"), path.resolve(HERE, "..", "..", "tests", "frontend", "js")];

const RULES = [
  [/\.(innerHTML|outerHTML)\b|insertAdjacentHTML|document\.write/, "HTML strings: build elements (common/dom.js el)"],
  [/\beval\s*\(|new\s+Function\b/, "eval and new Function are refused by the page's CSP"],
  [/\bconsole\.\w+\(/, "no console calls: say it on the page or drop it"],
  [/(^|[^\w$.])var\s/, "use const or let, not var"],
  [/[^=!<>]==[^=]|!=[^=]/, "loose equality: use === or !=="],
  [/\bdebugger\b/, "debugger statement"],
];

function walk(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(full));
    else if (/\.m?js$/.test(entry.name)) out.push(full);
  }
  return out.sort();
}

// The code of a line without its comment and string contents (good enough for these rules:
// our modules keep one statement per line and no regular expression holds a quote).
function code(line) {
  let out = "";
  let quote = null;
  for (let i = 0; i < line.length; i += 1) {
    const ch = line[i];
    if (quote) {
      if (ch === "\\") i += 1;
      else if (ch === quote) {
        quote = null;
        out += ch;
      }
      continue;
    }
    if (ch === "/" && line[i + 1] === "/") break;
    if (ch === '"' || ch === "'" || ch === "`") quote = ch;
    out += ch;
  }
  return out;
}

function importedNames(source) {
  const names = [];
  const pattern = /import\s+(?:(\w+)\s*,?\s*)?(?:\{([^}]*)\})?\s*(?:\*\s+as\s+(\w+))?\s*from\s*["'][^"']+["']/g;
  for (const match of source.matchAll(pattern)) {
    if (match[1]) names.push(match[1]);
    if (match[3]) names.push(match[3]);
    for (const part of (match[2] || "").split(",")) {
      const name = part.trim().split(/\s+as\s+/).pop();
      if (name) names.push(name);
    }
  }
  return names;
}

const problems = [];
const modules = new Map();

function load(file) {
  if (!modules.has(file)) {
    const source = fs.readFileSync(file, "utf8");
    modules.set(file, new vm.SourceTextModule(source, { identifier: file }));
  }
  return modules.get(file);
}

// Node's own modules (the unit tests import node:test and node:assert) as modules to link to.
async function builtin(specifier) {
  if (!modules.has(specifier)) {
    const real = await import(specifier);
    const names = Object.keys(real);
    const module = new vm.SyntheticModule(names, function () {
      for (const name of names) this.setExport(name, real[name]);
    });
    modules.set(specifier, module);
  }
  return modules.get(specifier);
}

function check(file) {
  const rel = path.relative(process.cwd(), file);
  const source = fs.readFileSync(file, "utf8");
  try {
    load(file);
  } catch (error) {
    problems.push(`${rel}: ${error.message}`);
    return;
  }
  source.split("\n").forEach((line, index) => {
    if (/[ \t]+$/.test(line)) problems.push(`${rel}:${index + 1}: trailing white space`);
    const text = code(line);
    for (const [pattern, why] of RULES) {
      if (pattern.test(text)) problems.push(`${rel}:${index + 1}: ${why}`);
    }
  });
  // An imported name used nowhere else in the module (re-exports count as uses).
  const body = source.replace(/^\s*import\s[^;]*;/gm, "");
  for (const name of importedNames(source)) {
    if (!new RegExp(`\\b${name}\\b`).test(body)) problems.push(`${rel}: ${name} is imported but not used`);
  }
}

const files = process.argv.length > 2 ? process.argv.slice(2).map((f) => path.resolve(f)) : ROOTS.flatMap(walk);
for (const file of files) check(file);
for (const file of files) {
  const module = modules.get(file);
  if (!module || module.status !== "unlinked") continue;
  try {
    await module.link(async (specifier, referrer) => {
      if (specifier.startsWith("node:")) return builtin(specifier);
      const target = path.resolve(path.dirname(referrer.identifier), specifier);
      if (!fs.existsSync(target)) throw new Error(`${specifier} does not exist`);
      return load(target);
    });
  } catch (error) {
    problems.push(`${path.relative(process.cwd(), file)}: ${error.message}`);
  }
}
for (const problem of problems) process.stderr.write(`${problem}\n`);
process.exitCode = problems.length ? 1 : 0;
if (!problems.length) process.stdout.write(`${files.length} modules: no problem\n`);

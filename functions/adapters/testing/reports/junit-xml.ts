import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { type CaseStatus, type TestCaseResult, totalsOf } from '../../../core/testing/results';
import { failureText, type ParsedReport, ReportFormatError, type ReportOptions, repositoryFile, secondsToMs } from './report-text';

/**
 * JUnit XML as the frameworks the service runs actually write it (checked against their output):
 *
 * - pytest (`--junitxml`, run with `-o junit_family=xunit1` so each case has `file`):
 *   `<testsuites name="pytest tests"><testsuite name="pytest">` then flat `<testcase classname="pkg.test_mod.TestClass"
 *   name="test_x" file="pkg/test_mod.py">`; `<error>` for a failing fixture/setup/teardown and for a module that
 *   failed to collect (`classname=""`, `name="pkg.test_mod"`), `<skipped type="pytest.skip|pytest.xfail">`.
 * - node:test (`--test-reporter=junit`): `<testsuites>` holding `<testcase classname="test">` and, for `describe`
 *   or a test with subtests, nested `<testsuite name="...">`; no file attribute; `<skipped>` for skip and todo;
 *   a test file that failed as a whole (threw while loading, exited non-zero) is a `<testcase>` named by the file's
 *   absolute path; `<failure type="hookFailed|cancelledByParent">` when the test itself never ran to completion.
 * - vitest (`--reporter=junit`): one `<testsuite name="tests/a.test.ts">` per file, `<testcase classname="<file>"
 *   name="describe > test">`, `<skipped/>` for skip and todo, every problem a `<failure>` (`errors="0"`); a file that
 *   failed to import or threw while collecting is a `<testcase>` whose name is the file.
 *
 * Classification: `<error>` → errored, `<failure>` → failed (errored for the file-level and hook cases above),
 * `<skipped>` → skipped, otherwise passed. Names join enclosing non-file suites with ` > `.
 */

interface XmlElement {
  tag: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const maxReportChars = 32 * 1024 * 1024;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  cdataPropName: '#cdata',
  htmlEntities: true,
});

type OrderedNode = Record<string, unknown>;

const toElements = (nodes: unknown): XmlElement[] => {
  if (!Array.isArray(nodes)) return [];
  const elements: XmlElement[] = [];
  for (const node of nodes as OrderedNode[]) {
    const tag = Object.keys(node).find((key) => key !== ':@' && !key.startsWith('#') && !key.startsWith('?'));
    if (!tag) continue;
    const rawAttrs = node[':@'];
    const attrs: Record<string, string> = {};
    if (rawAttrs && typeof rawAttrs === 'object') {
      for (const [key, value] of Object.entries(rawAttrs)) attrs[key] = String(value);
    }
    const content = Array.isArray(node[tag]) ? (node[tag] as OrderedNode[]) : [];
    const text = content
      .map((child) => {
        if (typeof child['#text'] === 'string' || typeof child['#text'] === 'number') return String(child['#text']);
        const cdata = child['#cdata'];
        if (Array.isArray(cdata)) return cdata.map((part: OrderedNode) => String(part['#text'] ?? '')).join('');
        return '';
      })
      .join('');
    elements.push({ tag, attrs, children: toElements(content), text });
  }
  return elements;
};

const child = (element: XmlElement, tag: string): XmlElement | undefined => element.children.find((c) => c.tag === tag);

const codeFilePattern = /\.(?:[cm]?[jt]sx?|py)$/i;
const looksLikeFile = (value: string | undefined): value is string =>
  value !== undefined && value !== '' && !/\s/.test(value) && codeFilePattern.test(value);
const isAbsolute = (value: string): boolean => value.startsWith('/') || /^[A-Za-z]:[\\/]/.test(value);

/** node:test's failure types for a test that never ran to completion because of something other than its body. */
const erroredFailureTypes = new Set(['hookFailed', 'cancelledByParent']);

interface SuiteFrame {
  name: string | undefined;
  file: string | undefined;
  /** A suite standing for a file or for the whole run (vitest's per-file suites, pytest's "pytest"): not part of names. */
  container: boolean;
}

/** pytest without a `file` attribute: `pkg.test_mod.TestClass` → `pkg/test_mod.py` (classes are capitalised). */
const pytestModuleFile = (classname: string): string | null => {
  const segments = classname.split('.').filter(Boolean);
  const firstClass = segments.findIndex((segment) => /^[A-Z]/.test(segment));
  const moduleSegments = firstClass === -1 ? segments : segments.slice(0, firstClass);
  return moduleSegments.length > 0 ? `${moduleSegments.join('/')}.py` : null;
};

export const parseJUnitXml = (xml: string, options: ReportOptions = {}): ParsedReport => {
  if (typeof xml !== 'string' || xml.trim() === '') throw new ReportFormatError('the JUnit report is empty');
  if (xml.length > maxReportChars) throw new ReportFormatError('the JUnit report is too large');
  if (/<!ENTITY/i.test(xml)) throw new ReportFormatError('the JUnit report declares entities');
  const validation = XMLValidator.validate(xml);
  if (validation !== true) throw new ReportFormatError(`the JUnit report is not well-formed XML: ${validation.err.msg}`);

  const top = toElements(parser.parse(xml) as unknown);
  const root = top.find((element) => element.tag === 'testsuites' || element.tag === 'testsuite');
  if (!root) throw new ReportFormatError('the report has no <testsuites> or <testsuite> element');

  const pytest =
    root.attrs['name'] === 'pytest tests' ||
    (root.tag === 'testsuite' ? [root] : root.children).some((s) => s.tag === 'testsuite' && s.attrs['name'] === 'pytest');

  const cases: TestCaseResult[] = [];

  const visitCase = (element: XmlElement, suites: readonly SuiteFrame[]): void => {
    const rawName = element.attrs['name'] ?? '';
    const classname = element.attrs['classname'];
    const suiteFile = [...suites].reverse().find((suite) => suite.file)?.file;
    const suiteNamedFile = [...suites].reverse().find((suite) => looksLikeFile(suite.name))?.name;

    let file: string | null = null;
    if (element.attrs['file']) file = element.attrs['file'];
    else if (suiteFile) file = suiteFile;
    else if (pytest && classname) file = pytestModuleFile(classname);
    else if (looksLikeFile(classname)) file = classname;
    else if (suiteNamedFile) file = suiteNamedFile;
    else if (looksLikeFile(rawName) && isAbsolute(rawName)) file = rawName;

    // A case that stands for a whole file (node:test's absolute path, vitest's file-named case).
    const fileLevel = looksLikeFile(rawName) && (isAbsolute(rawName) || rawName === classname || rawName === file);

    const error = child(element, 'error');
    const failure = child(element, 'failure');
    const skipped = child(element, 'skipped');
    let status: CaseStatus = 'passed';
    let problem: XmlElement | undefined;
    if (error) {
      status = 'errored';
      problem = error;
    } else if (failure || element.attrs['failure'] !== undefined) {
      problem = failure;
      status = fileLevel || erroredFailureTypes.has(failure?.attrs['type'] ?? '') ? 'errored' : 'failed';
    } else if (skipped) {
      status = 'skipped';
    }

    const prefix = suites.filter((suite) => !suite.container && suite.name).map((suite) => suite.name as string);
    if (pytest && classname && file) {
      // pytest's classname is `module.Class`: keep the class part, the module is the file.
      const moduleName = file.replace(/\.py$/, '').replace(/\//g, '.');
      const classPart = classname.startsWith(`${moduleName}.`) ? classname.slice(moduleName.length + 1) : '';
      if (classPart) prefix.push(...classPart.split('.'));
    }
    const name = fileLevel ? (repositoryFile(rawName, options.rootDir) ?? rawName) : [...prefix, rawName].join(' > ');

    cases.push({
      name,
      file: repositoryFile(file, options.rootDir),
      status,
      duration_ms: secondsToMs(element.attrs['time']),
      failure_message:
        status === 'failed' || status === 'errored'
          ? failureText([problem?.attrs['message'] ?? element.attrs['failure'], problem?.text, problem?.attrs['type']])
          : null,
    });
  };

  const visitSuite = (element: XmlElement, suites: readonly SuiteFrame[], depth: number): void => {
    const name = element.attrs['name'];
    const caseClassnames = element.children.filter((c) => c.tag === 'testcase').map((c) => c.attrs['classname']);
    const container =
      (pytest && depth === 0 && name === 'pytest') ||
      (name !== undefined && (name === element.attrs['file'] || caseClassnames.includes(name))) ||
      (depth === 0 && looksLikeFile(name));
    const frame: SuiteFrame = { name, file: element.attrs['file'], container };
    visitChildren(element, [...suites, frame], depth + 1);
  };

  const visitChildren = (element: XmlElement, suites: readonly SuiteFrame[], depth: number): void => {
    for (const item of element.children) {
      if (item.tag === 'testcase') visitCase(item, suites);
      else if (item.tag === 'testsuite') visitSuite(item, suites, depth);
    }
  };

  if (root.tag === 'testsuites') visitChildren(root, [], 0);
  else visitSuite(root, [], 0);

  return { cases, totals: totalsOf(cases) };
};

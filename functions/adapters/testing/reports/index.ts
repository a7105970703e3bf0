export { parseJestJson } from './jest-json';
export { parseJUnitXml } from './junit-xml';
export { type ParsedReport, ReportFormatError, type ReportOptions } from './report-text';

// Written by `npm run assets:names` from dashboard.css and dashboard.client.js; a unit test fails when it is stale.
export const stylesheetFile = 'dashboard.77dff78adada.css';
export const scriptFile = 'dashboard.fd907ef9e37f.js';

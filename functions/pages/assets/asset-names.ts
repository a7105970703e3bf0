// Written by `npm run assets:names` from dashboard.css and dashboard.client.js; a unit test fails when it is stale.
export const stylesheetFile = 'dashboard.ccd2489c87cd.css';
export const scriptFile = 'dashboard.d415f03b9261.js';

// Written by `npm run assets:names` from dashboard.css and dashboard.client.js; a unit test fails when it is stale.
export const stylesheetFile = 'dashboard.3e8c88dbc5fd.css';
export const scriptFile = 'dashboard.5164318880d5.js';

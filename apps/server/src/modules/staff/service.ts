// What other modules may ask of the staff module (decision 053): the role a staff member holds
// for a client, as the console's guards read it; who answers for a client's settings (the
// owners and its program managers), whom the installation's notices about it go to.
export { clientMaintainers, roleIn } from './store.ts';

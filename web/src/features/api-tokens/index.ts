// Personal API tokens (issue 30, part 1): the screen where a user makes, sees and revokes them.
export { ApiTokensScreen } from './tokens-screen';

/**
 * What every view of the admin UI is given by the shell (main.ts): who is signed in, and how to
 * move to another view. Its own module so the views and the shell that picks them do not import
 * each other.
 */
import type { SessionInfo } from './api';

export interface ViewContext {
  readonly session: SessionInfo;
  readonly navigate: (path: string) => void;
}

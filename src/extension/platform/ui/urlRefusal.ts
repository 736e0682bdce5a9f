import * as vscode from 'vscode';
import type { UrlRefused } from '../../../workbench/urlPolicy';

/** Why a URL was refused (checkExternalUrl), in the person's words. */
export function sayUrlRefusal(refused: UrlRefused): string {
  switch (refused.reason) {
    case 'missing':
      return vscode.l10n.t('the URL is missing or not a string');
    case 'unparsable':
      return vscode.l10n.t('the URL cannot be parsed');
    case 'no-host':
      return vscode.l10n.t('the URL has no host');
    case 'userinfo':
      return vscode.l10n.t('the URL has a user name or password before the host');
    case 'backslash':
      return vscode.l10n.t('the URL contains a backslash');
    case 'control-character':
      return vscode.l10n.t('the URL contains the character {0}', refused.character);
    case 'scheme':
      return vscode.l10n.t('{0} URLs are not allowed, only http: and https:', refused.scheme);
    default: {
      const exhaustive: never = refused;
      return exhaustive;
    }
  }
}

import { useState } from 'react';
import { useI18n } from '../i18n/I18nContext.tsx';

/**
 * A form's field messages, checked on submit: `problem(field)` is the text to show, and
 * `edit(field, set)` wraps a setter so that a field loses its message as soon as it is edited
 * while the others keep theirs until the next submit (`clear(field)` for inputs that are not a
 * text). A message is a translation key, or a richer problem that `describe` puts into words
 * (a date field's, which names the dates allowed).
 */
export function useFieldProblems<Field extends string, Rich extends object = never>(describe?: (problem: Rich) => string) {
  const { t } = useI18n();
  const [problems, setProblems] = useState<Partial<Record<Field, string | Rich>>>({});
  const problem = (field: Field) => {
    const found: string | Rich | undefined = problems[field];
    if (!found) return undefined;
    return typeof found === 'string' ? t(found) : describe?.(found);
  };
  const clear = (field: Field) => {
    if (problems[field]) setProblems((p) => ({ ...p, [field]: undefined }));
  };
  const edit = (field: Field, set: (value: string) => void) => (value: string) => {
    set(value);
    clear(field);
  };
  return { problems, setProblems, problem, clear, edit };
}

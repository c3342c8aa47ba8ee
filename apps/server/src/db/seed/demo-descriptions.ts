// The ledger descriptions of the demo program, shared by demo.ts and demo-activity.ts.

/**
 * Demo entries carry a translation key and its values (so the history reads in every language)
 * beside the operator's English words. An `itemKey` value is itself a key (see activity/describe.ts).
 */
export const demoEntries = {
  monthlyTarget: (program: string) => ({
    description: `${program}: monthly target met`,
    descriptionKey: 'ledger.award.monthlyTarget',
    descriptionParams: { program },
    kind: 'award' as const,
  }),
  quarterly: (program: string) => ({
    description: `${program}: quarterly award`,
    descriptionKey: 'ledger.award.quarterly',
    descriptionParams: { program },
    kind: 'award' as const,
  }),
  quarterlyRecognition: (program: string) => ({
    description: `${program}: quarterly recognition`,
    descriptionKey: 'ledger.award.quarterlyRecognition',
    descriptionParams: { program },
    kind: 'award' as const,
  }),
  serviceYears: (program: string, years: number) => ({
    description: `${program}: ${years} years of service`,
    descriptionKey: 'ledger.award.serviceYears',
    descriptionParams: { program, years },
    kind: 'award' as const,
  }),
  spotBonus: () => ({ description: 'Spot bonus: customer praise', descriptionKey: 'ledger.award.spotBonus', kind: 'award' as const }),
  teamGoal: () => ({ description: 'Team goal bonus', descriptionKey: 'ledger.award.teamGoal', kind: 'award' as const }),
  training: () => ({ description: 'Training course completed', descriptionKey: 'ledger.award.training', kind: 'award' as const }),
  yearStart: (year: number) => ({
    description: `Welcome to ${year}: year-start bonus`,
    descriptionKey: 'ledger.award.yearStart',
    descriptionParams: { year: String(year) },
    kind: 'award' as const,
  }),
  catalog: (item: string, itemKey: string) => ({
    description: `Catalog redemption: ${item}`,
    descriptionKey: 'ledger.redemption.catalog',
    descriptionParams: { itemKey },
    kind: 'redemption' as const,
  }),
  experience: (item: string, itemKey: string) => ({
    description: `Experience: ${item}`,
    descriptionKey: 'ledger.redemption.experience',
    descriptionParams: { itemKey },
    kind: 'redemption' as const,
  }),
};

import { describe, expect, it } from 'vitest';
import { profileForm } from './update-profile';

describe('profileForm (PATCH /api/updateprofile body)', () => {
  it('sends the areas of practice repeated', () => {
    expect(profileForm({ areasOfPractise: ['Maritime', 'Sports'] }).getAll('areasOfPractise')).toEqual([
      'Maritime',
      'Sports',
    ]);
  });

  it('sends an empty list as one empty value, which the server reads as "clear them all"', () => {
    expect(profileForm({ areasOfPractise: [] }).getAll('areasOfPractise')).toEqual(['']);
  });

  it('leaves the field out when the areas are not being changed', () => {
    expect(profileForm({ scn: 'SCN1' }).has('areasOfPractise')).toBe(false);
  });
});

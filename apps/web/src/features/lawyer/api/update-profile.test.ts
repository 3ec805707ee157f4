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

  it('sends an emptied optional field, which clears it, and leaves out an emptied required one', () => {
    const form = profileForm({ yourBio: ' ', yearOfCall: '', scn: '', phoneNumber: '' });
    expect(form.getAll('yourBio')).toEqual(['']);
    expect(form.getAll('yearOfCall')).toEqual(['']);
    expect(form.has('scn')).toBe(false);
    expect(form.has('phoneNumber')).toBe(false);
  });

  it('leaves the field out when the areas are not being changed', () => {
    expect(profileForm({ scn: 'SCN1' }).has('areasOfPractise')).toBe(false);
  });
});

//! `PyRandom`: bit-exact with CPython's `random.Random(int_seed)` for the calls the engine makes.

const N: usize = 624;
const M: usize = 397;

/// The state after `init_genrand(19650218)`, where every `init_by_array` starts.
const GENRAND_19650218: [u32; N] = {
    let mut mt = [0u32; N];
    mt[0] = 19_650_218;
    let mut i = 1;
    while i < N {
        let prev = mt[i - 1];
        mt[i] = 1_812_433_253u32
            .wrapping_mul(prev ^ (prev >> 30))
            .wrapping_add(i as u32);
        i += 1;
    }
    mt
};

/// MT19937 seeded like CPython (`init_by_array` over the 32-bit words of the seed).
#[derive(Clone)]
pub struct PyRandom {
    mt: [u32; N],
    index: usize,
}

impl PyRandom {
    /// `random.Random(seed)` for a non-negative integer seed.
    pub fn new(seed: u64) -> PyRandom {
        let mut key = vec![seed as u32];
        if seed >> 32 != 0 {
            key.push((seed >> 32) as u32);
        }
        let mut r = PyRandom {
            mt: [0; N],
            index: N,
        };
        r.init_by_array(&key);
        r
    }

    fn init_by_array(&mut self, key: &[u32]) {
        self.mt = GENRAND_19650218;
        self.index = N;
        let (mut i, mut j) = (1usize, 0usize);
        let mut k = N.max(key.len());
        while k > 0 {
            let prev = self.mt[i - 1];
            self.mt[i] = (self.mt[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                self.mt[0] = self.mt[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
            k -= 1;
        }
        k = N - 1;
        while k > 0 {
            let prev = self.mt[i - 1];
            self.mt[i] = (self.mt[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_566_083_941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                self.mt[0] = self.mt[N - 1];
                i = 1;
            }
            k -= 1;
        }
        self.mt[0] = 0x8000_0000;
    }

    fn twist(&mut self) {
        const UPPER: u32 = 0x8000_0000;
        const LOWER: u32 = 0x7fff_ffff;
        let mt = &mut self.mt;
        let mix = |a: u32, b: u32, c: u32| {
            let y = (a & UPPER) | (b & LOWER);
            c ^ (y >> 1) ^ (if y & 1 != 0 { 0x9908_b0df } else { 0 })
        };
        for kk in 0..N - M {
            mt[kk] = mix(mt[kk], mt[kk + 1], mt[kk + M]);
        }
        for kk in N - M..N - 1 {
            mt[kk] = mix(mt[kk], mt[kk + 1], mt[kk + M - N]);
        }
        mt[N - 1] = mix(mt[N - 1], mt[0], mt[M - 1]);
        self.index = 0;
    }

    /// One 32-bit output of the generator (`genrand_uint32`).
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.twist();
        }
        let mut y = self.mt[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `getrandbits(k)` for 1 <= k <= 64 (words are drawn low first, as CPython does).
    pub fn getrandbits(&mut self, k: u32) -> u64 {
        debug_assert!((1..=64).contains(&k));
        if k <= 32 {
            return (self.next_u32() >> (32 - k)) as u64;
        }
        let low = self.next_u32() as u64;
        let high = (self.next_u32() >> (64 - k)) as u64;
        low | (high << 32)
    }

    /// `_randbelow_with_getrandbits(n)` for n >= 1.
    pub fn randbelow(&mut self, n: u64) -> u64 {
        let k = 64 - n.leading_zeros();
        let mut r = self.getrandbits(k);
        while r >= n {
            r = self.getrandbits(k);
        }
        r
    }

    /// `randrange(n)` for n >= 1.
    pub fn randrange(&mut self, n: usize) -> usize {
        self.randbelow(n as u64) as usize
    }

    /// `shuffle(x)`: Fisher-Yates from the end, as CPython.
    pub fn shuffle<T>(&mut self, x: &mut [T]) {
        for i in (1..x.len()).rev() {
            let j = self.randbelow(i as u64 + 1) as usize;
            x.swap(i, j);
        }
    }

    /// `random()`: a float in [0, 1) from 53 bits.
    pub fn random(&mut self) -> f64 {
        let a = (self.next_u32() >> 5) as f64;
        let b = (self.next_u32() >> 6) as f64;
        (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0)
    }
}

#[cfg(test)]
mod tests {
    use super::PyRandom;

    /// Values printed by CPython 3.11: getrandbits(32) x3, randrange(2,3,7,100,1000,2**33), random(),
    /// then shuffle(list(range(10))).
    fn check(seed: u64, words: [u64; 3], ranges: [u64; 6], f: f64, shuffled: [u8; 10]) {
        let mut r = PyRandom::new(seed);
        for w in words {
            assert_eq!(r.getrandbits(32), w, "seed {seed}");
        }
        for (n, want) in [2u64, 3, 7, 100, 1000, 1 << 33].iter().zip(ranges) {
            assert_eq!(r.randbelow(*n), want, "seed {seed} randrange({n})");
        }
        assert_eq!(r.random(), f);
        let mut l: Vec<u8> = (0..10).collect();
        r.shuffle(&mut l);
        assert_eq!(l, shuffled);
    }

    #[test]
    fn matches_cpython() {
        check(
            0,
            [3626764237, 1654615998, 3255389356],
            [1, 0, 2, 65, 497, 6341935620],
            0.5833820394550312,
            [5, 4, 9, 6, 0, 1, 7, 2, 8, 3],
        );
        check(
            1,
            [577090037, 2444712010, 3639700191],
            [0, 1, 0, 63, 779, 6225516707],
            0.651592972722763,
            [4, 8, 2, 6, 5, 9, 0, 7, 1, 3],
        );
        check(
            12345678901234,
            [107551873, 2403399316, 624174316],
            [1, 2, 3, 91, 505, 8463651636],
            0.1971209805299593,
            [4, 0, 1, 8, 2, 7, 6, 9, 3, 5],
        );
        check(
            u64::MAX,
            [93740670, 1068495656, 1452108352],
            [0, 1, 4, 12, 941, 8163924934],
            0.7679927478143009,
            [6, 4, 1, 8, 2, 9, 5, 7, 3, 0],
        );
        check(
            42,
            [2746317213, 478163327, 107420369],
            [1, 0, 1, 17, 754, 2342331444],
            0.5904925124490397,
            [5, 3, 2, 8, 4, 6, 7, 1, 9, 0],
        );
    }
}

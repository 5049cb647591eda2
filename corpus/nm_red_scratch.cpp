// corpus: near-miss Reduction, C++ sweeps whose helper fills a local array but also keeps state in its object, or leaves the array as it was beyond a cutoff
// args: test=300 2 bench=20000000 10
// near-miss: Profile::sample remembers the last point in the object (a write besides the array it fills, read again by the next call); Profile::clipped returns without filling q beyond the cutoff, so the points beyond it reuse the values of the last point before it
#include <array>
#include <cstdio>
#include <cstdlib>
#include <vector>

class Profile {
public:
    explicit Profile(double cutoff) : cutoff_(cutoff)
    {
        for (int m = 0; m < 4; m++)
            for (int p = 0; p < 3; p++)
                c_[m][p] = double((2 * m + 3 * p) % 5) / 5.0 + 0.1;
    }

    // The four components at x, smoothed with the previous point asked for.
    void sample(double x, double (&q)[4])
    {
        const double s = 0.5 * (x + last_);
        for (int m = 0; m < 4; m++)   // expect: Map in Profile::sample
            q[m] = c_[m][0] + s * (c_[m][1] + s * c_[m][2]);
        last_ = x;
    }

    // The four components at x, left as they were beyond the cutoff (held constant there).
    void clipped(double x, std::array<double, 4>& q) const
    {
        if (x > cutoff_)
            return;
        for (int m = 0; m < 4; m++)   // expect: Map in Profile::clipped
            q[m] = c_[m][0] + x * (c_[m][1] + x * c_[m][2]);
    }

    void set_cutoff(double cutoff) { cutoff_ = cutoff; }

private:
    double c_[4][3];
    double last_ = 0.0;
    double cutoff_;
};

double smoothed_error(Profile& profile, const std::vector<double>& u)
{
    double q[4], sum = 0.0;
    const int n = int(u.size());
    for (int i = 0; i < n; i++) {                 // expect-none: Reduction
        profile.sample(double(i) / n, q);
        const double d = u[i] - q[1];
        sum += d * d;
    }
    return sum;
}

double clipped_error(const Profile& profile, const std::vector<double>& u)
{
    std::array<double, 4> q{};
    double sum = 0.0;
    const int n = int(u.size());
    for (int i = 0; i < n; i++) {                 // expect-none: Reduction
        profile.clipped(double(i) / n, q);
        const double d = u[i] - q[3];
        sum += d * d;
    }
    return sum;
}

int main(int argc, char** argv)
{
    const int n = argc > 1 ? std::atoi(argv[1]) : 1000;
    const int reps = argc > 2 ? std::atoi(argv[2]) : 2;
    if (n < 1 || reps < 1)
        return 1;
    std::vector<double> u(n);
    for (int i = 0; i < n; i++)
        u[i] = double((i * 7) % 23) / 23.0;
    Profile profile(0.6);
    double smooth = 0.0, clip = 0.0;
    for (int r = 0; r < reps; r++) {
        profile.set_cutoff(0.6 + 0.1 * (r % 3));
        smooth += smoothed_error(profile, u);
        clip += clipped_error(profile, u);
    }
    std::printf("n = %d reps = %d\n", n, reps);
    std::printf("smoothed = %.10g clipped = %.10g\n", smooth, clip);
    return 0;
}
